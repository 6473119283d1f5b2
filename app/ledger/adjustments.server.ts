import type { Transaction } from 'sequelize';
import { logActivity } from '../activity-log.server.ts';
import { assertCan } from '../auth/permissions.server.ts';
import type { Actor, ClientCommand } from '../auth/users.server.ts';
import { sqlUserName } from '../auth/user-record.server.ts';
import { execute, inTransaction, selectOne, selectPage } from '../db.server.ts';
import { apiError, parseInput } from '../utils/api.server.ts';
import { iso, money } from '../utils/api-values.ts';
import { pageBounds } from '../utils/list-url.ts';
import { toCents } from '../utils/money.ts';
import { isUuid } from '../utils/validation.ts';
import type { LedgerAdjustmentStatus } from '../../db/models/enums.ts';
import { LEDGER_ADJUSTMENT_STATUSES } from '../../db/models/enums.ts';
import type { Client, LedgerAdjustment } from '../../db/models/index.ts';
import type { RowOf } from '../../db/models/rows.ts';
import { fourEyesAmount } from './book-settings.server.ts';
import { postLedgerEntries } from './ledger.server.ts';
import { LEDGER_ERRORS, adjustmentRejectSchema, adjustmentRequestSchema, type AdjustmentRequestInput } from './schemas.ts';

/**
 * Manual adjustments of a client's account (docs/money.md#the-clients-account).
 * A manager asks for one (a signed amount, a reason, optionally one of the
 * client's invoices). Up to the book's four-eyes amount it is posted at once,
 * approved by its requester; above it, it waits until another manager
 * approves it (the requester may not: 403, as with credit limits) or rejects
 * it with a reason. The posting is an 'adjustment' entry through
 * postLedgerEntries, in the decision's transaction, with its activity row.
 */

export interface LedgerAdjustmentDto {
  id: string;
  clientId: string;
  clientName: string;
  invoiceId: string | null;
  invoiceNumber: string | null;
  /** Signed EUR from the factor's side, as the ledger entry will carry it. */
  amount: number;
  reason: string;
  status: LedgerAdjustmentStatus;
  requestedById: string | null;
  requestedBy: string | null;
  requestedAt: string;
  decidedById: string | null;
  decidedBy: string | null;
  decidedAt: string | null;
  rejectionReason: string | null;
  /** The ledger entry an approval wrote. */
  entryNumber: number | null;
}

type AdjustmentRow = RowOf<
  typeof LedgerAdjustment,
  'id' | 'client_id' | 'invoice_id' | 'amount' | 'reason' | 'status' | 'requested_by' | 'requested_at' | 'decided_by' | 'decided_at' | 'rejection_reason'
> & {
  client_name: RowOf<typeof Client>['company_name'];
  invoice_number: string | null;
  requested_by_name: string | null;
  decided_by_name: string | null;
  entry_number: string | number | null;
};

const SELECT_ADJUSTMENTS = `
  SELECT a.id, a.client_id, c.company_name AS client_name, a.invoice_id, i.invoice_number, a.amount, a.reason, a.status,
         a.requested_by, ${sqlUserName('ru')} AS requested_by_name, a.requested_at,
         a.decided_by, ${sqlUserName('du')} AS decided_by_name, a.decided_at, a.rejection_reason,
         (SELECT l.entry_number FROM client_ledger l WHERE l.adjustment_id = a.id ORDER BY l.entry_number LIMIT 1) AS entry_number
    FROM ledger_adjustments a
    JOIN clients c ON c.id = a.client_id
    LEFT JOIN invoices i ON i.id = a.invoice_id
    LEFT JOIN users ru ON ru.id = a.requested_by
    LEFT JOIN users du ON du.id = a.decided_by`;

function toDto(row: AdjustmentRow): LedgerAdjustmentDto {
  return {
    id: row.id,
    clientId: row.client_id,
    clientName: row.client_name,
    invoiceId: row.invoice_id,
    invoiceNumber: row.invoice_number,
    amount: money(row.amount),
    reason: row.reason,
    status: row.status,
    requestedById: row.requested_by,
    requestedBy: row.requested_by_name,
    requestedAt: iso(row.requested_at),
    decidedById: row.decided_by,
    decidedBy: row.decided_by_name,
    decidedAt: iso(row.decided_at),
    rejectionReason: row.rejection_reason,
    entryNumber: row.entry_number === null ? null : Number(row.entry_number),
  };
}

async function readAdjustment(id: string, transaction?: Transaction): Promise<LedgerAdjustmentDto> {
  const row = await selectOne<AdjustmentRow>(`${SELECT_ADJUSTMENTS} WHERE a.id = :id`, { id }, { transaction });
  if (!row) throw apiError(404, LEDGER_ERRORS.adjustmentNotFound);
  return toDto(row);
}

/** The adjustment's ledger entry, booked today (Croatia), written by whoever decided it. */
async function post(adjustment: { id: string; client_id: string; invoice_id: string | null; amount: string; reason: string }, actor: Actor, transaction: Transaction) {
  const [entry] = await postLedgerEntries(
    [
      {
        clientId: adjustment.client_id,
        kind: 'adjustment',
        amountCents: toCents(adjustment.amount),
        description: adjustment.reason,
        createdBy: actor.id,
        invoiceId: adjustment.invoice_id,
        adjustmentId: adjustment.id,
      },
    ],
    transaction,
  );
  return entry.entryNumber;
}

/**
 * POST /api/clients/{id}/ledger-adjustments and the client page's form.
 * Throws 400 (invalid input; an invoice of another client), 403, 404 (client).
 */
export async function requestAdjustment({ actor, clientId, input, ip }: ClientCommand<AdjustmentRequestInput>): Promise<LedgerAdjustmentDto> {
  assertCan(actor, 'adjust:ledger');
  const data = parseInput(adjustmentRequestSchema, input);
  return inTransaction(async (transaction) => {
    // The invoice first, then the client: the order postLedgerEntries' callers lock in.
    const invoice = data.invoiceId
      ? await selectOne<{ id: string; client_id: string; invoice_number: string }>(
          'SELECT id, client_id, invoice_number FROM invoices WHERE id = :id FOR UPDATE',
          { id: data.invoiceId },
          { transaction },
        )
      : null;
    const client = isUuid(clientId)
      ? await selectOne<RowOf<typeof Client, 'id' | 'company_name'>>('SELECT id, company_name FROM clients WHERE id = :clientId FOR UPDATE', { clientId }, { transaction })
      : null;
    if (!client) throw apiError(404, LEDGER_ERRORS.clientNotFound);
    if (data.invoiceId && invoice?.client_id !== client.id) throw apiError(400, LEDGER_ERRORS.invoiceNotOfClient, { errors: { invoiceId: [LEDGER_ERRORS.invoiceNotOfClient] } });

    const threshold = await fourEyesAmount(transaction);
    const immediate = Math.abs(toCents(data.amount)) <= toCents(threshold);
    const { rows } = await execute<{ id: string }>(
      `INSERT INTO ledger_adjustments (client_id, invoice_id, amount, reason, status, requested_by, decided_by, decided_at)
       VALUES (:clientId, :invoiceId, :amount, :reason, :status, :actorId, :decidedBy, ${immediate ? 'now()' : 'NULL'})
       RETURNING id`,
      {
        clientId: client.id,
        invoiceId: invoice?.id ?? null,
        amount: data.amount,
        reason: data.reason,
        status: immediate ? 'approved' : 'pending',
        actorId: actor.id,
        decidedBy: immediate ? actor.id : null,
      },
      { transaction },
    );
    const id = rows[0].id;
    const entryNumber = immediate ? await post({ id, client_id: client.id, invoice_id: invoice?.id ?? null, amount: data.amount, reason: data.reason }, actor, transaction) : null;
    await logActivity(
      {
        action: immediate ? 'ledger_adjustment_posted' : 'ledger_adjustment_requested',
        userId: actor.id,
        entityType: 'ledger_adjustment',
        entityId: id,
        ipAddress: ip,
        details: {
          clientId: client.id,
          clientName: client.company_name,
          invoiceNumber: invoice?.invoice_number ?? null,
          amount: data.amount,
          reason: data.reason,
          fourEyesAbove: threshold,
          entryNumber,
        },
      },
      transaction,
    );
    return readAdjustment(id, transaction);
  });
}

type LockedAdjustment = RowOf<typeof LedgerAdjustment, 'id' | 'client_id' | 'invoice_id' | 'amount' | 'reason' | 'status' | 'requested_by'>;

/** The adjustment locked FOR UPDATE (a second manager deciding now waits, then sees the decision: 409). 404; 403 for its requester. */
async function lockForDecision(actor: Actor, id: string, transaction: Transaction): Promise<LockedAdjustment> {
  const found = isUuid(id)
    ? await selectOne<{ invoice_id: string | null; client_id: string }>('SELECT invoice_id, client_id FROM ledger_adjustments WHERE id = :id', { id }, { transaction })
    : null;
  if (!found) throw apiError(404, LEDGER_ERRORS.adjustmentNotFound);
  // The invoice and the client before the adjustment, in the order every ledger writer locks.
  if (found.invoice_id) await execute('SELECT 1 FROM invoices WHERE id = :id FOR UPDATE', { id: found.invoice_id }, { transaction });
  await execute('SELECT 1 FROM clients WHERE id = :id FOR UPDATE', { id: found.client_id }, { transaction });
  const row = (await selectOne<LockedAdjustment>(
    'SELECT id, client_id, invoice_id, amount, reason, status, requested_by FROM ledger_adjustments WHERE id = :id FOR UPDATE',
    { id },
    { transaction },
  ))!;
  // Four eyes (docs/domain-model.md#roles-and-permissions): the requester never decides, whatever the state.
  if (row.requested_by !== null && row.requested_by === actor.id) throw apiError(403, LEDGER_ERRORS.ownRequest);
  if (row.status !== 'pending') throw apiError(409, LEDGER_ERRORS.notPending);
  return row;
}

/** POST /api/ledger-adjustments/{id}/approve: another manager approves a pending adjustment, which is posted. 403, 404, 409. */
export async function approveAdjustment({ actor, id, ip }: { actor: Actor; id: string; ip?: string | null }): Promise<LedgerAdjustmentDto> {
  assertCan(actor, 'adjust:ledger');
  return inTransaction(async (transaction) => {
    const adjustment = await lockForDecision(actor, id, transaction);
    await execute(`UPDATE ledger_adjustments SET status = 'approved', decided_by = :actorId, decided_at = now() WHERE id = :id`, { id, actorId: actor.id }, { transaction });
    const entryNumber = await post(adjustment, actor, transaction);
    await logActivity(
      {
        action: 'ledger_adjustment_approved',
        userId: actor.id,
        entityType: 'ledger_adjustment',
        entityId: id,
        ipAddress: ip,
        details: { clientId: adjustment.client_id, amount: adjustment.amount, reason: adjustment.reason, entryNumber },
      },
      transaction,
    );
    return readAdjustment(id, transaction);
  });
}

/** POST /api/ledger-adjustments/{id}/reject {reason}: another manager rejects a pending adjustment; nothing is posted. 400, 403, 404, 409. */
export async function rejectAdjustment({ actor, id, reason, ip }: { actor: Actor; id: string; reason: string; ip?: string | null }): Promise<LedgerAdjustmentDto> {
  assertCan(actor, 'adjust:ledger');
  const data = parseInput(adjustmentRejectSchema, { reason });
  return inTransaction(async (transaction) => {
    const adjustment = await lockForDecision(actor, id, transaction);
    await execute(
      `UPDATE ledger_adjustments SET status = 'rejected', rejection_reason = :reason, decided_by = :actorId, decided_at = now() WHERE id = :id`,
      { id, reason: data.reason, actorId: actor.id },
      { transaction },
    );
    await logActivity(
      {
        action: 'ledger_adjustment_rejected',
        userId: actor.id,
        entityType: 'ledger_adjustment',
        entityId: id,
        ipAddress: ip,
        details: { clientId: adjustment.client_id, amount: adjustment.amount, reason: adjustment.reason, rejectionReason: data.reason },
      },
      transaction,
    );
    return readAdjustment(id, transaction);
  });
}

/**
 * GET /api/clients/{id}/ledger-adjustments and the client page: newest first,
 * `status` one of pending/approved/rejected or all; counted in SQL. 400 for an
 * unknown status, 404 for an unknown client.
 */
export async function listAdjustments(
  clientId: string,
  options: { status?: string | null; limit?: number; offset?: number } = {},
): Promise<{ adjustments: LedgerAdjustmentDto[]; total: number }> {
  const status = options.status && options.status !== 'all' ? options.status : null;
  if (status !== null && !(LEDGER_ADJUSTMENT_STATUSES as readonly string[]).includes(status)) {
    throw apiError(400, LEDGER_ERRORS.statusInvalid, { errors: { status: [LEDGER_ERRORS.statusInvalid] } });
  }
  const client = isUuid(clientId) ? await selectOne<{ id: string }>('SELECT id FROM clients WHERE id = :clientId', { clientId }) : null;
  if (!client) throw apiError(404, LEDGER_ERRORS.clientNotFound);
  const { limit, offset } = pageBounds(options);
  const where = `a.client_id = :clientId${status ? ' AND a.status = :status' : ''}`;
  const replacements = { clientId, status, limit, offset };
  const { rows, total } = await selectPage<AdjustmentRow>(
    `${SELECT_ADJUSTMENTS} WHERE ${where} ORDER BY a.requested_at DESC, a.id DESC LIMIT :limit OFFSET :offset`,
    `SELECT count(*)::int AS total FROM ledger_adjustments a WHERE ${where}`,
    replacements,
  );
  return { adjustments: rows.map(toDto), total };
}
