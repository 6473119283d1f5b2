import { randomBytes } from 'node:crypto';
import type { Transaction } from 'sequelize';
import { logActivity } from '../activity-log.server.ts';
import { assertCan } from '../auth/permissions.server.ts';
import type { Actor } from '../auth/users.server.ts';
import { factorAccount } from '../banking/factor-account.server.ts';
import { isValidIban } from '../banking/iban.ts';
import { buildPain001, validatePain001 } from '../banking/pain001.server.ts';
import { execute, inTransaction, selectOne, selectRows } from '../db.server.ts';
import { PAYMENT_MESSAGES, PAYOUT_STATUSES } from '../payments/schemas.ts';
import { apiError } from '../utils/api.server.ts';
import { statusList, type RefusalParams } from '../utils/refusals.ts';
import { centsToNumber, sumCents, toCents } from '../utils/money.ts';
import { SQL_BUSINESS_TODAY } from '../utils/business-time.ts';
import { isUuid } from '../utils/validation.ts';
import { iso, money } from '../utils/api-values.ts';
import type { Client, Invoice, Payout } from '../../db/models/index.ts';
import type { RowOf } from '../../db/models/rows.ts';
import { pageBounds } from '../utils/list-url.ts';

/**
 * Money the factor pays to its clients (docs/money.md): the advance at financing
 * (written by app/invoices) and the reserve release when the customer's
 * payment settles the invoice (app/payments). Payouts are paid through the
 * bank with an ISO 20022 pain.001 file: exporting marks them 'exported' with
 * the file's MsgId as export_batch_id in the same transaction that reads them
 * (rows locked), so a payout is never in two files. pending → exported → paid;
 * a pending reserve release is cancelled when its settlement is refunded.
 */
export interface PayoutDto {
  id: string;
  kind: 'advance' | 'reserve_release';
  clientId: string;
  clientName: string;
  invoiceId: string;
  invoiceNumber: string;
  amount: number;
  currency: string;
  iban: string;
  status: string;
  exportBatchId: string | null;
  exportedAt: string | null;
  createdAt: string;
}

type PayoutRow = RowOf<typeof Payout, 'id' | 'kind' | 'client_id' | 'invoice_id' | 'amount' | 'currency' | 'iban' | 'status' | 'export_batch_id' | 'exported_at' | 'created_at'> &
  RowOf<typeof Invoice, 'invoice_number'> & { client_name: RowOf<typeof Client>['company_name'] };

const SELECT_PAYOUT = `
  SELECT po.id, po.kind, po.client_id, po.invoice_id, po.amount, po.currency, po.iban, po.status, po.export_batch_id,
         po.exported_at, po.created_at, c.company_name AS client_name, i.invoice_number
    FROM payouts po JOIN clients c ON c.id = po.client_id JOIN invoices i ON i.id = po.invoice_id`;

function toPayoutDto(row: PayoutRow): PayoutDto {
  return {
    id: row.id,
    kind: row.kind,
    clientId: row.client_id,
    clientName: row.client_name,
    invoiceId: row.invoice_id,
    invoiceNumber: row.invoice_number,
    amount: money(row.amount),
    currency: row.currency,
    iban: row.iban,
    status: row.status,
    exportBatchId: row.export_batch_id,
    exportedAt: iso(row.exported_at),
    createdAt: iso(row.created_at),
  };
}

/** GET /api/payouts: newest first; `status` pending | exported | paid | cancelled (absent or 'all' = every one). */
export async function listPayouts(options: { status?: string | null; limit?: number; offset?: number } = {}): Promise<{ items: PayoutDto[]; total: number; pendingTotal: number }> {
  const { limit, offset } = pageBounds(options);
  const replacements: Record<string, unknown> = { limit, offset };
  let where = '';
  if (options.status && options.status !== 'all') {
    if (!(PAYOUT_STATUSES as readonly string[]).includes(options.status)) {
      throw apiError(400, PAYMENT_MESSAGES.invalidStatus, { errors: { status: [PAYMENT_MESSAGES.invalidStatus] } });
    }
    replacements.status = options.status;
    where = 'WHERE po.status = :status';
  }
  const [rows, count] = await Promise.all([
    selectRows<PayoutRow>(`${SELECT_PAYOUT} ${where} ORDER BY po.created_at DESC, po.id DESC LIMIT :limit OFFSET :offset`, replacements),
    selectOne<{ total: number; pending: string }>(
      `SELECT count(*)::int AS total,
              (SELECT coalesce(sum(amount), 0)::numeric(15,2)::text FROM payouts WHERE status = 'pending') AS pending
         FROM payouts po ${where}`,
      replacements,
    ),
  ]);
  return { items: rows.map(toPayoutDto), total: count?.total ?? 0, pendingTotal: centsToNumber(toCents(count?.pending ?? '0')) };
}

/** 'YYYY-MM-DD' of today in Croatia, moved to Monday on a weekend (banks execute SEPA on TARGET2 days). */
async function executionDate(transaction: Transaction): Promise<string> {
  const row = await selectOne<{ day: string }>(
    `SELECT to_char(d + CASE extract(isodow FROM d) WHEN 6 THEN 2 WHEN 7 THEN 1 ELSE 0 END, 'YYYY-MM-DD') AS day
       FROM (SELECT ${SQL_BUSINESS_TODAY} AS d) t`,
    {},
    { transaction },
  );
  return row!.day;
}

/** A message id of at most 35 characters, unique by time and randomness. */
function newMessageId(now: Date): string {
  const stamp = now.toISOString().replace(/[-:T]/g, '').slice(0, 14);
  return `FINFLOW-${stamp}-${randomBytes(4).toString('hex').toUpperCase()}`;
}

export interface PayoutExport {
  xml: string;
  batchId: string;
  count: number;
  total: number;
  fileName: string;
}

/** 409 for a chosen payout the state does not allow: the refusal is about the ids the caller chose. */
function idsRefusal(code: string, params: RefusalParams): Response {
  return apiError(409, code, { params, errors: { ids: [{ code, params }] } });
}

/**
 * POST /api/payouts/export {ids} (manager): the chosen pending payouts as one
 * pain.001.001.09 file with the factor's account as debtor. 400 no ids, 404
 * an unknown id, 409 a payout that is not pending (already exported, paid or
 * cancelled), has no amount or an invalid IBAN. The file is checked with
 * validatePain001 before anything is marked.
 */
export async function exportPayouts({ actor, ids, ip }: { actor: Actor; ids: string[]; ip?: string | null }): Promise<PayoutExport> {
  assertCan(actor, 'finance:invoice');
  const unique = [...new Set(ids.map((id) => id.toLowerCase()))];
  if (unique.length === 0) throw apiError(400, PAYMENT_MESSAGES.payoutsRequired, { errors: { ids: [PAYMENT_MESSAGES.payoutsRequired] } });
  // An id that is no UUID names no payout (a form may post anything): 404, not a SQL error.
  if (!unique.every(isUuid)) throw apiError(404, PAYMENT_MESSAGES.payoutNotFound, { errors: { ids: [PAYMENT_MESSAGES.payoutNotFound] } });
  const debtor = factorAccount();
  return inTransaction(async (transaction) => {
    // Locked in a fixed order so two exports of overlapping selections queue instead of deadlocking.
    const rows = await selectRows<PayoutRow>(`${SELECT_PAYOUT} WHERE po.id IN (:ids) ORDER BY po.id FOR UPDATE OF po`, { ids: unique }, { transaction });
    if (rows.length !== unique.length) throw apiError(404, PAYMENT_MESSAGES.payoutNotFound, { errors: { ids: [PAYMENT_MESSAGES.payoutNotFound] } });
    const notPending = rows.filter((row) => row.status !== 'pending');
    if (notPending.length) {
      throw idsRefusal(PAYMENT_MESSAGES.payoutNotPending, { payouts: statusList(notPending.map((row) => ({ name: row.invoice_number, status: row.status }))) });
    }
    for (const row of rows) {
      if (toCents(row.amount) <= 0) throw idsRefusal(PAYMENT_MESSAGES.payoutNoAmount, { number: row.invoice_number });
      if (!isValidIban(row.iban)) throw idsRefusal(PAYMENT_MESSAGES.payoutInvalidIban, { number: row.invoice_number, iban: row.iban });
      if (row.currency !== 'EUR') throw idsRefusal(PAYMENT_MESSAGES.payoutNotEur, { number: row.invoice_number });
    }
    // The bank file lists them oldest first, as they were owed.
    rows.sort((a, b) => new Date(a.created_at).getTime() - new Date(b.created_at).getTime() || a.id.localeCompare(b.id));
    const now = new Date();
    const batchId = newMessageId(now);
    const xml = buildPain001({
      messageId: batchId,
      paymentInfoId: `${batchId}-1`.slice(0, 35),
      createdAt: now,
      executionDate: await executionDate(transaction),
      debtor,
      transfers: rows.map((row) => ({
        endToEndId: row.id.replace(/-/g, ''),
        amountCents: toCents(row.amount),
        currency: row.currency,
        creditorName: row.client_name,
        creditorIban: row.iban,
        remittance: `${row.kind === 'advance' ? 'Predujam' : 'Povrat rezerve'} po racunu ${row.invoice_number}`,
      })),
    });
    const { errors } = validatePain001(xml);
    if (errors.length) throw apiError(409, PAYMENT_MESSAGES.paymentFileInvalid, { params: { problems: errors.join('; ') } });

    await execute(`UPDATE payouts SET status = 'exported', export_batch_id = :batchId, exported_at = now() WHERE id IN (:ids)`, { ids: unique, batchId }, { transaction });
    const totalCents = sumCents(rows.map((row) => toCents(row.amount)));
    await logPayouts(
      rows,
      'payout_exported',
      (row) => ({
        batchId,
        kind: row.kind,
        invoiceNumber: row.invoice_number,
        clientName: row.client_name,
        amount: centsToNumber(toCents(row.amount)),
        iban: row.iban,
        fromStatus: 'pending',
        toStatus: 'exported',
      }),
      { actor, ip },
      transaction,
    );
    return { xml, batchId, count: rows.length, total: centsToNumber(totalCents), fileName: `${batchId}.xml` };
  });
}

/** One activity row per payout that moved (exported, paid): `action` and what `details` tells of it. */
async function logPayouts(
  rows: PayoutRow[],
  action: string,
  details: (row: PayoutRow) => Record<string, unknown>,
  by: { actor: Actor; ip?: string | null },
  transaction: Transaction,
): Promise<void> {
  for (const row of rows) {
    await logActivity({ action, userId: by.actor.id, entityType: 'payout', entityId: row.id, ipAddress: by.ip, details: details(row) }, transaction);
  }
}

/** Exported → paid once the bank confirms the batch (manager). 404 unknown, 409 not exported. */
export async function markPayoutsPaid({ actor, ids, ip }: { actor: Actor; ids: string[]; ip?: string | null }): Promise<PayoutDto[]> {
  assertCan(actor, 'finance:invoice');
  const unique = [...new Set(ids.map((id) => id.toLowerCase()))];
  if (unique.length === 0) throw apiError(400, PAYMENT_MESSAGES.payoutsRequired, { errors: { ids: [PAYMENT_MESSAGES.payoutsRequired] } });
  // An id that is no UUID names no payout (a form may post anything): 404, not a SQL error.
  if (!unique.every(isUuid)) throw apiError(404, PAYMENT_MESSAGES.payoutNotFound, { errors: { ids: [PAYMENT_MESSAGES.payoutNotFound] } });
  return inTransaction(async (transaction) => {
    const rows = await selectRows<PayoutRow>(`${SELECT_PAYOUT} WHERE po.id IN (:ids) ORDER BY po.id FOR UPDATE OF po`, { ids: unique }, { transaction });
    if (rows.length !== unique.length) throw apiError(404, PAYMENT_MESSAGES.payoutNotFound, { errors: { ids: [PAYMENT_MESSAGES.payoutNotFound] } });
    const wrong = rows.filter((row) => row.status !== 'exported');
    if (wrong.length) throw idsRefusal(PAYMENT_MESSAGES.payoutNotExported, { payouts: statusList(wrong.map((row) => ({ name: row.invoice_number, status: row.status }))) });
    await execute(`UPDATE payouts SET status = 'paid' WHERE id IN (:ids)`, { ids: unique }, { transaction });
    await logPayouts(
      rows,
      'payout_paid',
      (row) => ({
        batchId: row.export_batch_id,
        kind: row.kind,
        invoiceNumber: row.invoice_number,
        amount: centsToNumber(toCents(row.amount)),
        fromStatus: 'exported',
        toStatus: 'paid',
      }),
      { actor, ip },
      transaction,
    );
    const updated = await selectRows<PayoutRow>(`${SELECT_PAYOUT} WHERE po.id IN (:ids) ORDER BY po.created_at DESC`, { ids: unique }, { transaction });
    return updated.map(toPayoutDto);
  });
}
