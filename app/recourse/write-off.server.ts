import type { Transaction } from 'sequelize';
import { logActivity } from '../activity-log.server.ts';
import { assertCan } from '../auth/permissions.server.ts';
import type { Actor, InvoiceCommand } from '../auth/users.server.ts';
import { sqlUserName } from '../auth/user-record.server.ts';
import { execute, inTransaction, selectOne, selectPage, selectRows } from '../db.server.ts';
import { invoiceLedgerBalance, invoiceOutstandingAdvance, postLedgerEntries } from '../ledger/ledger.server.ts';
import { apiError, parseInput } from '../utils/api.server.ts';
import { iso, money } from '../utils/api-values.ts';
import { pageBounds } from '../utils/list-url.ts';
import { centsToDecimalString, centsToNumber } from '../utils/money.ts';
import { isUuid } from '../utils/validation.ts';
import { lockRecourseInvoice, type RecourseInvoice } from './recourse.server.ts';
import { RECOURSE_MESSAGES, recourseReasonSchema, WRITE_OFF_REQUEST_STATUSES, type RecourseReasonInput, type WriteOffRequestStatus } from './schemas.ts';
import type { Client, Customer, Invoice, User, WriteOffRequest } from '../../db/models/index.ts';
import type { RowOf } from '../../db/models/rows.ts';

/**
 * Write-off of a non-recourse invoice (docs/collections.md#recourse-and-write-off,
 * docs/money.md#recourse-and-write-off): a manager asks with a reason, an
 * admin who is someone else approves (403 for the requester, four eyes as the
 * credit limits') or rejects with a reason. On approval, in one transaction
 * holding the request, the invoice, the client and the customer rows: the
 * loss — the invoice's ledger balance, i.e. the outstanding advance and the
 * fees with their VAT the debtor's money has not covered — is credited to the
 * client's account (the loss is the factor's), the outstanding advance
 * leaving the financing so used credit and the debtor's exposure are
 * released; the invoice becomes `written_off`; the activity is logged.
 */

export interface WriteOffRequestDto {
  id: string;
  invoiceId: string;
  invoiceNumber: string;
  invoiceStatus: RowOf<typeof Invoice>['status'];
  invoiceAmount: number;
  currency: string;
  clientId: string;
  clientName: string;
  customerName: string;
  reason: string;
  status: WriteOffRequestStatus;
  requestedBy: string;
  requestedByName: string | null;
  requestedAt: string;
  decidedBy: string | null;
  decidedByName: string | null;
  decidedAt: string | null;
  rejectionReason: string | null;
  /** Approved: the loss booked. Pending: what approving today would book (the invoice's open ledger balance). */
  lossAmount: number;
}

type RequestRow = RowOf<typeof WriteOffRequest> & {
  invoice_number: RowOf<typeof Invoice>['invoice_number'];
  invoice_status: RowOf<typeof Invoice>['status'];
  invoice_amount: RowOf<typeof Invoice>['amount'];
  currency: RowOf<typeof Invoice>['currency'];
  client_id: RowOf<typeof Invoice>['client_id'];
  client_name: RowOf<typeof Client>['company_name'];
  customer_name: RowOf<typeof Customer>['company_name'];
  requested_by_name: RowOf<typeof User>['email'] | null;
  decided_by_name: RowOf<typeof User>['email'] | null;
  open_balance: string;
};

const SELECT_REQUESTS = `
  SELECT r.*, i.invoice_number, i.status AS invoice_status, i.amount AS invoice_amount, i.currency, i.client_id,
         c.company_name AS client_name, cu.company_name AS customer_name,
         coalesce(${sqlUserName('q')}, q.email) AS requested_by_name, coalesce(${sqlUserName('d')}, d.email) AS decided_by_name,
         (SELECT greatest(0, coalesce(sum(l.amount), 0)) FROM client_ledger l WHERE l.invoice_id = i.id) AS open_balance
    FROM write_off_requests r
    JOIN invoices i ON i.id = r.invoice_id
    JOIN clients c ON c.id = i.client_id
    JOIN customers cu ON cu.id = i.customer_id
    LEFT JOIN users q ON q.id = r.requested_by
    LEFT JOIN users d ON d.id = r.decided_by`;

function toDto(row: RequestRow): WriteOffRequestDto {
  return {
    id: row.id,
    invoiceId: row.invoice_id,
    invoiceNumber: row.invoice_number,
    invoiceStatus: row.invoice_status,
    invoiceAmount: money(row.invoice_amount),
    currency: row.currency,
    clientId: row.client_id,
    clientName: row.client_name,
    customerName: row.customer_name,
    reason: row.reason,
    status: row.status,
    requestedBy: row.requested_by,
    requestedByName: row.requested_by_name,
    requestedAt: iso(row.requested_at),
    decidedBy: row.decided_by,
    decidedByName: row.decided_by_name,
    decidedAt: iso(row.decided_at),
    rejectionReason: row.rejection_reason,
    lossAmount: money(row.loss_amount ?? (row.status === 'pending' ? row.open_balance : '0')),
  };
}

async function readRequest(id: string, transaction?: Transaction): Promise<WriteOffRequestDto> {
  return toDto((await selectOne<RequestRow>(`${SELECT_REQUESTS} WHERE r.id = :id`, { id }, { transaction }))!);
}

/** The write-off rules on a locked invoice: financed, non-recourse (409 naming why not). */
function assertWritableOff(invoice: RecourseInvoice) {
  const params = { number: invoice.invoice_number, status: invoice.status };
  if (invoice.status === 'written_off') throw apiError(409, RECOURSE_MESSAGES.alreadyWrittenOff, { params });
  if (invoice.status !== 'financed') throw apiError(409, RECOURSE_MESSAGES.notFinanced, { params });
  if (invoice.recourse !== false) throw apiError(409, RECOURSE_MESSAGES.recourseInvoice, { params });
}

/**
 * POST /api/invoices/{id}/write-off {reason} (manager): a pending write-off
 * request. 400 no reason, 403, 404, 409 not financed / a recourse invoice /
 * already written off / a request already pending.
 */
export async function requestWriteOff({ actor, invoiceId, input, ip }: InvoiceCommand<RecourseReasonInput>): Promise<WriteOffRequestDto> {
  assertCan(actor, 'request:write_off');
  const { reason } = parseInput(recourseReasonSchema, input);
  return inTransaction(async (transaction) => {
    const invoice = await lockRecourseInvoice(invoiceId, transaction);
    if (!invoice) throw apiError(404, RECOURSE_MESSAGES.invoiceNotFound);
    assertWritableOff(invoice);
    const pending = await selectOne<RowOf<typeof WriteOffRequest, 'id'>>(
      `SELECT id FROM write_off_requests WHERE invoice_id = :id AND status = 'pending'`,
      { id: invoice.id },
      { transaction },
    );
    if (pending) throw apiError(409, RECOURSE_MESSAGES.writeOffPending, { params: { number: invoice.invoice_number } });
    const { rows } = await execute<{ id: string }>(
      `INSERT INTO write_off_requests (invoice_id, reason, requested_by) VALUES (:invoiceId, :reason, :actorId) RETURNING id`,
      { invoiceId: invoice.id, reason, actorId: actor.id },
      { transaction },
    );
    await logActivity(
      {
        action: 'write_off_requested',
        userId: actor.id,
        entityType: 'invoice',
        entityId: invoice.id,
        ipAddress: ip,
        details: {
          invoiceNumber: invoice.invoice_number,
          writeOffRequestId: rows[0].id,
          reason,
          openBalance: centsToNumber(await invoiceLedgerBalance(invoice.id, { transaction })),
        },
      },
      transaction,
    );
    return readRequest(rows[0].id, transaction);
  });
}

type LockedRequest = RowOf<typeof WriteOffRequest, 'id' | 'invoice_id' | 'status' | 'requested_by' | 'reason'>;

/** The request row locked FOR UPDATE (a second admin deciding at once waits, then sees the first decision); 404, then 403 for the requester. */
async function lockForDecision(actor: Actor, id: string, transaction: Transaction): Promise<LockedRequest> {
  const row = isUuid(id)
    ? await selectOne<LockedRequest>('SELECT id, invoice_id, status, requested_by, reason FROM write_off_requests WHERE id = :id FOR UPDATE', { id }, { transaction })
    : null;
  if (!row) throw apiError(404, RECOURSE_MESSAGES.requestNotFound);
  if (row.requested_by === actor.id) throw apiError(403, RECOURSE_MESSAGES.ownRequest);
  if (row.status !== 'pending') throw apiError(409, RECOURSE_MESSAGES.notPending, { params: { requestStatus: row.status } });
  return row;
}

/**
 * PUT /api/write-offs/{id}/approve (admin, not the requester): books the
 * loss and closes the invoice as written_off (see the module comment). 403
 * role or own request, 404, 409 not pending or the invoice no longer
 * writable off (paid meanwhile). A test passes the transaction of its fixed
 * business day (tests/support/business-day.ts).
 */
export async function approveWriteOff(
  { actor, id, ip }: { actor: Actor; id: string; ip?: string | null },
  options: { transaction?: Transaction } = {},
): Promise<WriteOffRequestDto> {
  assertCan(actor, 'decide:write_off');
  return inTransaction(async (transaction) => {
    const request = await lockForDecision(actor, id, transaction);
    const invoice = (await lockRecourseInvoice(request.invoice_id, transaction))!;
    assertWritableOff(invoice);
    const balance = await invoiceLedgerBalance(invoice.id, { transaction });
    const outstanding = await invoiceOutstandingAdvance(invoice.id, { transaction });
    // The loss is what the client's entries on the invoice still leave owed; a balance in the client's favour stays its own.
    const loss = Math.max(0, balance);
    const entry = { clientId: invoice.client_id, invoiceId: invoice.id, createdBy: actor.id };
    await postLedgerEntries(
      [
        { ...entry, kind: 'advance', amountCents: -outstanding, description: `Otpis ${invoice.invoice_number}: predujam` },
        { ...entry, kind: 'write_off', amountCents: -(loss - outstanding), description: `Otpis ${invoice.invoice_number}: naknade` },
      ],
      transaction,
    );
    await execute(
      `UPDATE invoices SET status = 'written_off', written_off_at = now(), written_off_by = :actorId WHERE id = :id`,
      { id: invoice.id, actorId: actor.id },
      { transaction },
    );
    await execute(
      `UPDATE write_off_requests SET status = 'approved', decided_by = :actorId, decided_at = now(), loss_amount = :loss WHERE id = :id`,
      { id: request.id, actorId: actor.id, loss: centsToDecimalString(loss) },
      { transaction },
    );
    await logActivity(
      {
        action: 'invoice_written_off',
        userId: actor.id,
        entityType: 'invoice',
        entityId: invoice.id,
        ipAddress: ip,
        details: {
          invoiceNumber: invoice.invoice_number,
          fromStatus: 'financed',
          toStatus: 'written_off',
          writeOffRequestId: request.id,
          requestedBy: request.requested_by,
          reason: request.reason,
          loss: centsToNumber(loss),
          advanceWrittenOff: centsToNumber(outstanding),
          feesWrittenOff: centsToNumber(loss - outstanding),
          clientCreditLeft: centsToNumber(Math.max(0, -balance)),
        },
      },
      transaction,
    );
    return readRequest(request.id, transaction);
  }, options.transaction);
}

/** PUT /api/write-offs/{id}/reject {reason} (admin, not the requester): the invoice stays financed. 400, 403, 404, 409 not pending. */
export async function rejectWriteOff({ actor, id, input, ip }: { actor: Actor; id: string; input: RecourseReasonInput; ip?: string | null }): Promise<WriteOffRequestDto> {
  assertCan(actor, 'decide:write_off');
  const { reason } = parseInput(recourseReasonSchema, input);
  return inTransaction(async (transaction) => {
    const request = await lockForDecision(actor, id, transaction);
    await execute(
      `UPDATE write_off_requests SET status = 'rejected', decided_by = :actorId, decided_at = now(), rejection_reason = :reason WHERE id = :id`,
      { id: request.id, actorId: actor.id, reason },
      { transaction },
    );
    const invoice = await selectOne<RowOf<typeof Invoice, 'invoice_number'>>('SELECT invoice_number FROM invoices WHERE id = :id', { id: request.invoice_id }, { transaction });
    await logActivity(
      {
        action: 'write_off_rejected',
        userId: actor.id,
        entityType: 'invoice',
        entityId: request.invoice_id,
        ipAddress: ip,
        details: { invoiceNumber: invoice?.invoice_number ?? null, writeOffRequestId: request.id, reason },
      },
      transaction,
    );
    return readRequest(request.id, transaction);
  });
}

/** GET /api/write-offs?status=: newest first, paged and counted in SQL; 400 for an unknown status. */
export async function listWriteOffRequests(options: { status?: string | null; limit?: number; offset?: number } = {}): Promise<{ items: WriteOffRequestDto[]; total: number }> {
  const { limit, offset } = pageBounds(options);
  const replacements: Record<string, unknown> = { limit, offset };
  let where = '';
  if (options.status) {
    if (!(WRITE_OFF_REQUEST_STATUSES as readonly string[]).includes(options.status)) {
      throw apiError(400, RECOURSE_MESSAGES.invalidStatus, { errors: { status: [RECOURSE_MESSAGES.invalidStatus] } });
    }
    replacements.status = options.status;
    where = 'WHERE r.status = :status';
  }
  const { rows, total } = await selectPage<RequestRow>(
    `${SELECT_REQUESTS} ${where} ORDER BY r.requested_at DESC, r.id DESC LIMIT :limit OFFSET :offset`,
    `SELECT count(*)::int AS total FROM write_off_requests r ${where}`,
    replacements,
  );
  return { items: rows.map(toDto), total };
}

/** The write-off requests of one invoice, newest first (the invoice page). */
export async function invoiceWriteOffRequests(invoiceId: string): Promise<WriteOffRequestDto[]> {
  if (!isUuid(invoiceId)) return [];
  const rows = await selectRows<RequestRow>(`${SELECT_REQUESTS} WHERE r.invoice_id = :invoiceId ORDER BY r.requested_at DESC, r.id DESC LIMIT 50`, { invoiceId });
  return rows.map(toDto);
}
