import type { Transaction } from 'sequelize';
import { logActivity } from '../activity-log.server.ts';
import { agreementInForce } from '../agreements/in-force.server.ts';
import { assertCan } from '../auth/permissions.server.ts';
import { sqlUserName } from '../auth/user-record.server.ts';
import type { InvoiceCommand } from '../auth/users.server.ts';
import { execute, inTransaction, selectOne } from '../db.server.ts';
import { apiError, parseInput } from '../utils/api.server.ts';
import { iso, money } from '../utils/api-values.ts';
import { SQL_BUSINESS_TODAY } from '../utils/business-time.ts';
import { isUuid } from '../utils/validation.ts';
import type { DebtorAnswer, Invoice, InvoiceDispute } from '../../db/models/index.ts';
import type { RowOf } from '../../db/models/rows.ts';
import { DEBTOR_ERRORS, DEBTOR_REFUSALS, disputeSchema, OFFERED_STATUSES, type DisputeInput } from './schemas.ts';

/**
 * Disputes and confirmations as the rest of the book sees them
 * (docs/collections.md#the-notice-of-assignment-and-the-debtors-confirmation):
 * staff opening a dispute on the debtor's behalf, the invoice page's section,
 * and the rules verification and financing apply (a disputed invoice is
 * neither verified nor financed; an agreement may make verification wait for
 * the debtor's confirmation). Resolving a dispute is not here.
 */

/**
 * Opens the invoice's dispute and sets its flag and reason, in the caller's
 * transaction with the invoice row locked; the database allows one open
 * dispute per invoice (invoice_disputes_one_open).
 */
export async function insertDispute(
  input: { invoiceId: string; reason: string; source: 'debtor' | 'staff'; openedBy: string | null; ip: string | null },
  transaction: Transaction,
): Promise<string> {
  const { rows } = await execute<{ id: string }>(
    `INSERT INTO invoice_disputes (invoice_id, reason, source, opened_by, opened_ip) VALUES (:invoiceId, :reason, :source, :openedBy, :ip) RETURNING id`,
    { ...input, ip: input.ip ? input.ip.slice(0, 64) : null },
    { transaction },
  );
  await execute(`UPDATE invoices SET disputed = true, dispute_reason = :reason WHERE id = :invoiceId`, input, { transaction });
  return rows[0].id;
}

/** A dispute as the invoice page and the API show it: who opened it and how, and its outcome once resolved. */
export interface InvoiceDisputeDto {
  id: string;
  invoiceId: string;
  reason: string;
  source: RowOf<typeof InvoiceDispute>['source'];
  openedAt: string;
  /** The staff member who opened it; null for the debtor through its link. */
  openedBy: string | null;
  openedIp: string | null;
  outcome: RowOf<typeof InvoiceDispute>['outcome'];
  agreedAmount: number | null;
  resolutionNote: string | null;
  resolvedAt: string | null;
  resolvedBy: string | null;
}

type DisputeRow = RowOf<
  typeof InvoiceDispute,
  'id' | 'invoice_id' | 'reason' | 'source' | 'opened_at' | 'opened_ip' | 'outcome' | 'agreed_amount' | 'resolution_note' | 'resolved_at'
> & { opened_by_name: string | null; resolved_by_name: string | null };

const SELECT_DISPUTES = `
  SELECT d.id, d.invoice_id, d.reason, d.source, d.opened_at, d.opened_ip, ${sqlUserName('o')} AS opened_by_name, d.outcome, d.agreed_amount,
         d.resolution_note, d.resolved_at, ${sqlUserName('r')} AS resolved_by_name
    FROM invoice_disputes d LEFT JOIN users o ON o.id = d.opened_by LEFT JOIN users r ON r.id = d.resolved_by`;

function toDisputeDto(row: DisputeRow): InvoiceDisputeDto {
  return {
    id: row.id,
    invoiceId: row.invoice_id,
    reason: row.reason,
    source: row.source,
    openedAt: iso(row.opened_at),
    openedBy: row.opened_by_name,
    openedIp: row.opened_ip,
    outcome: row.outcome,
    agreedAmount: money(row.agreed_amount),
    resolutionNote: row.resolution_note,
    resolvedAt: iso(row.resolved_at),
    resolvedBy: row.resolved_by_name,
  };
}

async function openDisputeOf(invoiceId: string, transaction?: Transaction): Promise<InvoiceDisputeDto | null> {
  const row = await selectOne<DisputeRow>(`${SELECT_DISPUTES} WHERE d.invoice_id = :invoiceId AND d.resolved_at IS NULL`, { invoiceId }, { transaction });
  return row ? toDisputeDto(row) : null;
}

/** One dispute by its id (after resolving it, in the resolving transaction). */
export async function disputeById(id: string, transaction?: Transaction): Promise<InvoiceDisputeDto | null> {
  const row = await selectOne<DisputeRow>(`${SELECT_DISPUTES} WHERE d.id = :id`, { id }, { transaction });
  return row ? toDisputeDto(row) : null;
}

/** The invoice page: the open dispute, if any, and the last resolved one. */
export async function invoiceDisputes(invoiceId: string): Promise<{ open: InvoiceDisputeDto | null; lastResolved: InvoiceDisputeDto | null }> {
  if (!isUuid(invoiceId)) return { open: null, lastResolved: null };
  const [open, resolved] = await Promise.all([
    openDisputeOf(invoiceId),
    selectOne<DisputeRow>(`${SELECT_DISPUTES} WHERE d.invoice_id = :invoiceId AND d.resolved_at IS NOT NULL ORDER BY d.resolved_at DESC, d.id LIMIT 1`, { invoiceId }),
  ]);
  return { open, lastResolved: resolved ? toDisputeDto(resolved) : null };
}

/**
 * POST /api/invoices/{id}/dispute {reason} (manager) and the invoice page: staff
 * open a dispute on the debtor's behalf (by phone, by letter). 404 unknown
 * invoice, 409 when one is open or the invoice is no longer open (paid,
 * rejected). The debtor's own disputes come through its link.
 */
export async function openDispute({ actor, invoiceId, input, ip }: InvoiceCommand<DisputeInput | unknown>): Promise<InvoiceDisputeDto> {
  assertCan(actor, 'dispute:invoice');
  const { reason } = parseInput(disputeSchema, input);
  return inTransaction(async (transaction) => {
    const invoice = isUuid(invoiceId)
      ? await selectOne<RowOf<typeof Invoice, 'id' | 'invoice_number' | 'status' | 'disputed' | 'dispute_reason'>>(
          `SELECT id, invoice_number, status, disputed, dispute_reason FROM invoices WHERE id = :invoiceId FOR UPDATE`,
          { invoiceId },
          { transaction },
        )
      : null;
    if (!invoice) throw apiError(404, DEBTOR_ERRORS.invoiceNotFound);
    if (invoice.disputed) throw apiError(409, DEBTOR_ERRORS.disputeOpen, { params: { number: invoice.invoice_number, reason: invoice.dispute_reason ?? '' } });
    if (!(OFFERED_STATUSES as readonly string[]).includes(invoice.status)) {
      throw apiError(409, DEBTOR_ERRORS.disputeWrongState, { params: { number: invoice.invoice_number, status: invoice.status } });
    }
    const disputeId = await insertDispute({ invoiceId: invoice.id, reason, source: 'staff', openedBy: actor.id, ip: ip ?? null }, transaction);
    await logActivity(
      {
        action: 'invoice_disputed',
        userId: actor.id,
        entityType: 'invoice',
        entityId: invoice.id,
        ipAddress: ip,
        details: { invoiceNumber: invoice.invoice_number, source: 'staff', disputeId, reason },
      },
      transaction,
    );
    return (await openDisputeOf(invoice.id, transaction))!;
  });
}

export interface InvoiceDebtorView {
  /** Whether a dispute is open (it is shown, and resolved, in the invoice page's dispute section). */
  disputed: boolean;
  /** The debtor's answer through its link, if it gave one. */
  answer: { answer: RowOf<typeof DebtorAnswer>['answer']; answeredAt: string; ip: string | null } | null;
}

/** The invoice page's debtor section: the debtor's answer, and whether a dispute is open. */
export async function invoiceDebtorView(invoiceId: string): Promise<InvoiceDebtorView> {
  const [invoice, answer] = await Promise.all([
    selectOne<RowOf<typeof Invoice, 'disputed'>>(`SELECT disputed FROM invoices WHERE id = :invoiceId`, { invoiceId }),
    selectOne<RowOf<typeof DebtorAnswer, 'answer' | 'answered_at' | 'ip'>>(`SELECT answer, answered_at, ip FROM debtor_answers WHERE invoice_id = :invoiceId`, { invoiceId }),
  ]);
  return { disputed: invoice?.disputed ?? false, answer: answer ? { answer: answer.answer, answeredAt: iso(answer.answered_at), ip: answer.ip } : null };
}

/** 409 naming the open dispute and its reason (eligibility's 'dispute' check and verification). */
export function disputedRefusal(invoice: Pick<RowOf<typeof Invoice>, 'invoice_number' | 'dispute_reason'>): Response {
  return apiError(409, DEBTOR_REFUSALS.disputed, { params: { number: invoice.invoice_number, reason: invoice.dispute_reason ?? '' } });
}

/**
 * What verification adds (docs/lifecycle.md#invoices): refused (409) while the
 * invoice is disputed, and, when the client's agreement in force today requires
 * it, until the debtor has confirmed the invoice through its link.
 */
export async function assertVerifiable(
  invoice: Pick<RowOf<typeof Invoice>, 'id' | 'client_id' | 'invoice_number' | 'disputed' | 'dispute_reason'>,
  transaction: Transaction,
): Promise<void> {
  if (invoice.disputed) throw disputedRefusal(invoice);
  const { today } = (await selectOne<{ today: string }>(`SELECT to_char(${SQL_BUSINESS_TODAY}, 'YYYY-MM-DD') AS today`, {}, { transaction }))!;
  const agreement = await agreementInForce(invoice.client_id, today, { transaction });
  if (!agreement?.requires_debtor_confirmation) return;
  const confirmed = await selectOne(`SELECT 1 AS confirmed FROM debtor_answers WHERE invoice_id = :id AND answer = 'confirmed'`, { id: invoice.id }, { transaction });
  if (!confirmed) throw apiError(409, DEBTOR_REFUSALS.confirmationRequired, { params: { number: invoice.invoice_number, agreement: agreement.number } });
}
