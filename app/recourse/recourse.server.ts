import type { Transaction } from 'sequelize';
import { logActivity } from '../activity-log.server.ts';
import { assertCan } from '../auth/permissions.server.ts';
import type { Actor } from '../auth/users.server.ts';
import { execute, inTransaction, selectOne, selectRows } from '../db.server.ts';
import { invoiceLedgerBalance, invoiceOutstandingAdvance, postLedgerEntries } from '../ledger/ledger.server.ts';
import { settleFeeToDate } from '../payments/settlement.server.ts';
import { readInvoice, toInvoiceDto, type InvoiceDto } from '../invoices/invoice-dto.server.ts';
import { apiError, parseInput } from '../utils/api.server.ts';
import { SQL_BUSINESS_TODAY } from '../utils/business-time.ts';
import { centsToDecimalString, centsToNumber, toCents } from '../utils/money.ts';
import { isUuid } from '../utils/validation.ts';
import { RECOURSE_MESSAGES, recourseReasonSchema, type RecourseReasonInput } from './schemas.ts';
import type { Agreement, Client, Customer, Invoice } from '../../db/models/index.ts';
import type { RowOf } from '../../db/models/rows.ts';

/**
 * Recourse chargeback (docs/collections.md#recourse-and-write-off,
 * docs/money.md#recourse-and-write-off, docs/lifecycle.md#recourse-and-write-off).
 *
 * A financed invoice under a recourse agreement version that is still not
 * fully paid once `due_date + recourse_days` has passed is charged back by
 * the daily job; a manager may charge one back earlier with a reason. In one
 * transaction holding the invoice, then the client, then the customer row:
 * the fee is settled on the actual days as a settlement does (a completing
 * fee e-invoice or a credit note, ../payments/settlement.server.ts), the
 * outstanding advance moves from the debtor's financing to the client's own
 * debt (`chargeBack`), the invoice becomes `charged_back`, a manual-review
 * task opens on it and the activity is logged. Write-offs are
 * ./write-off.server.ts.
 */

/** The invoice as a chargeback or a write-off reads it, with the recourse terms of the agreement version its financing used. */
export type RecourseInvoice = RowOf<
  typeof Invoice,
  'id' | 'client_id' | 'customer_id' | 'invoice_number' | 'status' | 'amount' | 'paid_amount' | 'factor_amount' | 'currency' | 'due_date'
> & {
  recourse: RowOf<typeof Agreement>['recourse'] | null;
  recourse_days: RowOf<typeof Agreement>['recourse_days'] | null;
  client_name: RowOf<typeof Client>['company_name'];
  /** The invoice's recourse period has passed today (Croatia). */
  recourse_due: boolean;
};

/**
 * Locks the invoice, then its client and customer rows (docs/lifecycle.md's
 * lock order), and reads it with its agreement's recourse terms. Null when
 * there is no such invoice.
 */
export async function lockRecourseInvoice(id: string, transaction: Transaction): Promise<RecourseInvoice | null> {
  if (!isUuid(id)) return null;
  const invoice = await selectOne<RecourseInvoice>(
    `SELECT i.id, i.client_id, i.customer_id, i.invoice_number, i.status, i.amount, i.paid_amount, i.factor_amount, i.currency, i.due_date,
            a.recourse, a.recourse_days, c.company_name AS client_name,
            coalesce(a.recourse AND i.due_date + a.recourse_days < ${SQL_BUSINESS_TODAY}, false) AS recourse_due
       FROM invoices i JOIN clients c ON c.id = i.client_id LEFT JOIN agreements a ON a.id = i.agreement_id
      WHERE i.id = :id FOR UPDATE OF i`,
    { id },
    { transaction },
  );
  if (!invoice) return null;
  await selectOne<RowOf<typeof Client, 'id'>>('SELECT id FROM clients WHERE id = :id FOR UPDATE', { id: invoice.client_id }, { transaction });
  await selectOne<RowOf<typeof Customer, 'id'>>('SELECT id FROM customers WHERE id = :id FOR UPDATE', { id: invoice.customer_id }, { transaction });
  return invoice;
}

/**
 * The one booking of a chargeback on the client's account
 * (docs/money.md#recourse-and-write-off): `amountCents` of the invoice's
 * outstanding advance stop being the factor's financing on the debtor and
 * become the client's own debt. Two entries on the invoice, booked today:
 * `advance` −amount (the advance no longer outstanding on the debtor, so the
 * ledger writer releases the client's used credit and the debtor's exposure
 * by it) and `chargeback` +amount (the client owes it). The advance and fees
 * were debited at financing, so the balance of the account does not change
 * here: what the client owes is the invoice's balance, now without a debtor
 * to collect it. Later collections on the invoice still credit the client.
 *
 * The caller holds the invoice, client and customer rows locked and passes at
 * most the invoice's outstanding advance (a dilution passes the advance in
 * excess of the reduced open amount; a chargeback the whole outstanding
 * advance). Returns the cents booked.
 */
export async function chargeBack(
  input: { clientId: string; invoiceId: string; invoiceNumber: string; amountCents: number; actorId: string | null },
  transaction: Transaction,
): Promise<number> {
  const outstanding = await invoiceOutstandingAdvance(input.invoiceId, { transaction });
  const cents = Math.min(input.amountCents, outstanding);
  if (cents <= 0) return 0;
  const entry = { clientId: input.clientId, invoiceId: input.invoiceId, createdBy: input.actorId };
  await postLedgerEntries(
    [
      { ...entry, kind: 'advance', amountCents: -cents, description: `Regres ${input.invoiceNumber}: predujam preuzima klijent` },
      { ...entry, kind: 'chargeback', amountCents: cents, description: `Regres ${input.invoiceNumber}` },
    ],
    transaction,
  );
  return cents;
}

/** A locked financed recourse invoice becomes charged_back (see the module comment); `actor` null is the daily job. */
async function closeByChargeback(invoice: RecourseInvoice, by: { actor: Actor | null; reason: string | null; ip?: string | null }, transaction: Transaction) {
  const actorId = by.actor?.id ?? null;
  const fee = await settleFeeToDate(actorId, invoice, transaction);
  const advanceCents = await chargeBack(
    { clientId: invoice.client_id, invoiceId: invoice.id, invoiceNumber: invoice.invoice_number, amountCents: toCents(invoice.factor_amount ?? '0'), actorId },
    transaction,
  );
  await execute(
    `UPDATE invoices SET status = 'charged_back', charged_back_at = now(), charged_back_by = :actorId, charge_back_reason = :reason WHERE id = :id`,
    { id: invoice.id, actorId, reason: by.reason },
    { transaction },
  );
  const owed = await invoiceLedgerBalance(invoice.id, { transaction });
  const owedText = centsToDecimalString(owed).replace('.', ',');
  const title = `Regres: faktura ${invoice.invoice_number}`.slice(0, 255);
  const description = by.reason
    ? `Faktura ${invoice.invoice_number} klijenta ${invoice.client_name} regresirana je prije isteka roka regresa: ${by.reason}. Klijent po njoj duguje ${owedText} EUR.`
    : `Faktura ${invoice.invoice_number} klijenta ${invoice.client_name} nije plaćena ni nakon isteka roka regresa pa je regresirana. Klijent po njoj duguje ${owedText} EUR.`;
  const { rows } = await execute<{ id: string }>(
    `INSERT INTO tasks (title, description, type, priority, status, entity_type, entity_id, created_by)
     VALUES (:title, :description, 'manual_review', 'high', 'pending', 'invoice', :invoiceId, :actorId) RETURNING id`,
    { title, description: description.slice(0, 5000), invoiceId: invoice.id, actorId },
    { transaction },
  );
  await logActivity(
    {
      action: 'invoice_charged_back',
      userId: actorId,
      entityType: 'invoice',
      entityId: invoice.id,
      ipAddress: by.ip,
      details: {
        invoiceNumber: invoice.invoice_number,
        fromStatus: 'financed',
        toStatus: 'charged_back',
        automatic: by.actor === null,
        reason: by.reason,
        recourseDays: invoice.recourse_days,
        advanceChargedBack: centsToNumber(advanceCents),
        feeInvoiced: centsToNumber(fee.invoiced),
        finalFee: centsToNumber(fee.finalFee),
        feeDays: fee.days,
        feeDocument: fee.feeDocument,
        owedByClient: centsToNumber(owed),
        taskId: rows[0].id,
      },
    },
    transaction,
  );
}

/**
 * PUT /api/invoices/{id}/charge-back {reason} (manager): charges a financed
 * recourse invoice back before its recourse period ends. 400 no reason, 403,
 * 404, 409 not financed / non-recourse / already charged back. A test passes
 * the transaction of its fixed business day (tests/support/business-day.ts).
 */
export async function chargeBackInvoice(
  { actor, id, input, ip }: { actor: Actor; id: string; input: RecourseReasonInput; ip?: string | null },
  options: { transaction?: Transaction } = {},
): Promise<InvoiceDto> {
  assertCan(actor, 'charge_back:invoice');
  const { reason } = parseInput(recourseReasonSchema, input);
  return inTransaction(async (transaction) => {
    const invoice = await lockRecourseInvoice(id, transaction);
    if (!invoice) throw apiError(404, RECOURSE_MESSAGES.invoiceNotFound);
    if (invoice.status === 'charged_back') throw apiError(409, RECOURSE_MESSAGES.alreadyChargedBack, { params: { number: invoice.invoice_number } });
    if (invoice.status !== 'financed') throw apiError(409, RECOURSE_MESSAGES.notFinanced, { params: { number: invoice.invoice_number, status: invoice.status } });
    if (invoice.recourse !== true) throw apiError(409, RECOURSE_MESSAGES.nonRecourse, { params: { number: invoice.invoice_number } });
    await closeByChargeback(invoice, { actor, reason, ip }, transaction);
    return toInvoiceDto((await readInvoice(invoice.id, transaction))!);
  }, options.transaction);
}

/**
 * The daily job (worker/jobs/recourse-chargeback.ts): every financed recourse
 * invoice whose recourse period has passed is charged back, each in its own
 * transaction. The invoice is read again under its row lock, so one a
 * manager charged back (or a payment settled) meanwhile is skipped: a rerun
 * or a concurrent manual chargeback never books it twice. A test passes the
 * transaction of its fixed business day (tests/support/business-day.ts).
 */
export async function chargeBackDueInvoices(options: { transaction?: Transaction } = {}): Promise<{ chargedBack: string[] }> {
  const due = await selectRows<RowOf<typeof Invoice, 'id'>>(
    `SELECT i.id FROM invoices i JOIN agreements a ON a.id = i.agreement_id
      WHERE i.status = 'financed' AND a.recourse AND i.due_date + a.recourse_days < ${SQL_BUSINESS_TODAY}
      ORDER BY i.due_date, i.id`,
    {},
    options,
  );
  const chargedBack: string[] = [];
  for (const { id } of due) {
    const done = await inTransaction(async (transaction) => {
      const invoice = await lockRecourseInvoice(id, transaction);
      if (!invoice || invoice.status !== 'financed' || !invoice.recourse_due) return false;
      await closeByChargeback(invoice, { actor: null, reason: null }, transaction);
      return true;
    }, options.transaction);
    if (done) chargedBack.push(id);
  }
  return { chargedBack };
}

/** Whether the agreement version an invoice's financing used is with recourse (null: none recorded), for the invoice page. */
export async function invoiceRecourse(invoiceId: string): Promise<boolean | null> {
  if (!isUuid(invoiceId)) return null;
  const row = await selectOne<{ recourse: RowOf<typeof Agreement>['recourse'] | null }>(
    'SELECT a.recourse FROM invoices i LEFT JOIN agreements a ON a.id = i.agreement_id WHERE i.id = :invoiceId',
    { invoiceId },
  );
  return row?.recourse ?? null;
}
