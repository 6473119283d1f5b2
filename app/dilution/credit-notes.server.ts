import type { Transaction } from 'sequelize';
import { logActivity } from '../activity-log.server.ts';
import { assertCan } from '../auth/permissions.server.ts';
import { sqlUserName } from '../auth/user-record.server.ts';
import type { InvoiceCommand } from '../auth/users.server.ts';
import { execute, inTransaction, selectOne, selectPage } from '../db.server.ts';
import type { LockedInvoice } from '../payments/payment-recording.server.ts';
import { settleInvoice } from '../payments/settlement.server.ts';
import { apiError, parseInput } from '../utils/api.server.ts';
import { iso, money } from '../utils/api-values.ts';
import { SQL_BUSINESS_TODAY } from '../utils/business-time.ts';
import { pageBounds } from '../utils/list-url.ts';
import { centsToDecimalString, centsToNumber, toCents } from '../utils/money.ts';
import { isUuid } from '../utils/validation.ts';
import type { Client, CreditNote, Customer, Invoice } from '../../db/models/index.ts';
import type { RowOf } from '../../db/models/rows.ts';
import { chargeExcessAdvance } from './excess-advance.server.ts';
import { DILUTION_ERRORS, creditNoteSchema, type CreditNoteInput, type CreditNoteSource } from './schemas.ts';

/**
 * Credit notes on purchased invoices (docs/collections.md#dilution-and-disputes-resolved).
 *
 * A credit note lowers what the debtor owes on a financed invoice: amount −
 * confirmed payments − credit notes. It may take at most what is still open
 * for it (that, less the payments waiting for confirmation, which the debtor
 * has already sent), in one transaction that
 *  - inserts it (a trigger adds it to invoices.credited_amount),
 *  - charges the client the excess advance when what the debtor still owes
 *    fell below the advance outstanding (./excess-advance.server.ts),
 *  - settles the invoice when nothing is owed any more, exactly as its final
 *    payment would (the final fee, its completing document, the reserve
 *    release net of fees; app/payments/settlement.server.ts),
 *  - and logs 'credit_note_recorded' on the invoice.
 * Entered by hand (source 'manual'), read from a UBL CreditNote ('ubl',
 * ./ubl-intake.server.ts) or written by a dispute resolved as reduced or
 * upheld ('dispute', ./disputes.server.ts).
 *
 * Lock order as the payment transitions: invoice, client, customer.
 */

export interface CreditNoteDto {
  id: string;
  invoiceId: string;
  invoiceNumber: string;
  number: string;
  issueDate: string;
  amount: number;
  currency: string;
  reason: string;
  source: CreditNoteSource;
  disputeId: string | null;
  /** The stored UBL CreditNote (source 'ubl'). */
  documentId: string | null;
  /** The business day it was entered. */
  bookedOn: string;
  /** The excess advance charged back to the client with it. */
  chargebackAmount: number;
  createdById: string | null;
  createdBy: string | null;
  createdAt: string;
}

type CreditNoteRow = RowOf<
  typeof CreditNote,
  'id' | 'invoice_id' | 'number' | 'issue_date' | 'amount' | 'reason' | 'source' | 'dispute_id' | 'document_id' | 'booked_on' | 'chargeback_amount' | 'created_by' | 'created_at'
> &
  RowOf<typeof Invoice, 'invoice_number' | 'currency'> & { created_by_name: string | null };

const SELECT_CREDIT_NOTES = `
  SELECT n.id, n.invoice_id, i.invoice_number, i.currency, n.number, to_char(n.issue_date, 'YYYY-MM-DD') AS issue_date, n.amount, n.reason, n.source,
         n.dispute_id, n.document_id, to_char(n.booked_on, 'YYYY-MM-DD') AS booked_on, n.chargeback_amount, n.created_by, ${sqlUserName('u')} AS created_by_name, n.created_at
    FROM credit_notes n JOIN invoices i ON i.id = n.invoice_id LEFT JOIN users u ON u.id = n.created_by`;

function toDto(row: CreditNoteRow): CreditNoteDto {
  return {
    id: row.id,
    invoiceId: row.invoice_id,
    invoiceNumber: row.invoice_number,
    number: row.number,
    issueDate: row.issue_date,
    amount: money(row.amount),
    currency: row.currency,
    reason: row.reason,
    source: row.source,
    disputeId: row.dispute_id,
    documentId: row.document_id,
    bookedOn: row.booked_on,
    chargebackAmount: money(row.chargeback_amount),
    createdById: row.created_by,
    createdBy: row.created_by_name,
    createdAt: iso(row.created_at),
  };
}

/** The invoice a credit note is written on, locked, with what the checks and the settlement read. */
export type CreditedInvoice = LockedInvoice & RowOf<typeof Invoice, 'customer_id' | 'issue_date' | 'pending_amount'> & { today: string };

/** Locks the invoice, then its client and customer (the ledger writer's order); null for an unknown id. */
export async function lockCreditedInvoice(invoiceId: string, transaction: Transaction) {
  if (!isUuid(invoiceId)) return null;
  const invoice = await selectOne<CreditedInvoice>(
    `SELECT i.id, i.client_id, i.customer_id, i.invoice_number, i.status, i.amount, i.paid_amount, i.credited_amount, i.pending_amount,
            i.factor_amount, i.factor_fee, i.currency, to_char(i.issue_date, 'YYYY-MM-DD') AS issue_date,
            greatest(i.amount - i.paid_amount - i.credited_amount - i.pending_amount, 0) AS open_for_payment,
            to_char(${SQL_BUSINESS_TODAY}, 'YYYY-MM-DD') AS today
       FROM invoices i WHERE i.id = :invoiceId FOR UPDATE`,
    { invoiceId },
    { transaction },
  );
  if (!invoice) return null;
  const client = (await selectOne<RowOf<typeof Client, 'id' | 'company_name' | 'iban'>>(
    'SELECT id, company_name, iban FROM clients WHERE id = :id FOR UPDATE',
    { id: invoice.client_id },
    { transaction },
  ))!;
  await selectOne<RowOf<typeof Customer, 'id'>>('SELECT id FROM customers WHERE id = :id FOR UPDATE', { id: invoice.customer_id }, { transaction });
  return { invoice, client };
}

/** What a credit note may still take: the open amount less the payments waiting for confirmation, in cents. */
export const creditableCents = (invoice: Pick<CreditedInvoice, 'open_for_payment'>) => toCents(invoice.open_for_payment);

export interface CreditNoteRecord {
  number: string;
  issueDate: string;
  amountCents: number;
  reason: string;
  source: CreditNoteSource;
  disputeId?: string | null;
  documentId?: string | null;
}

/**
 * Records one credit note on a locked invoice (see the module comment).
 * 409 not purchased, above what is open, number already recorded on this
 * invoice; 400 issued before the invoice or after today.
 */
export async function recordCreditNote(
  locked: NonNullable<Awaited<ReturnType<typeof lockCreditedInvoice>>>,
  record: CreditNoteRecord,
  { actorId, ip }: { actorId: string | null; ip?: string | null },
  transaction: Transaction,
): Promise<CreditNoteDto> {
  const { invoice, client } = locked;
  if (invoice.status !== 'financed' && invoice.status !== 'paid') {
    throw apiError(409, DILUTION_ERRORS.notPurchased, { params: { number: invoice.invoice_number, invoiceStatus: invoice.status } });
  }
  if (record.issueDate < invoice.issue_date) {
    throw apiError(400, DILUTION_ERRORS.issuedBeforeInvoice, {
      params: { date: invoice.issue_date },
      errors: { issueDate: [{ code: DILUTION_ERRORS.issuedBeforeInvoice, params: { date: invoice.issue_date } }] },
    });
  }
  if (record.issueDate > invoice.today) {
    throw apiError(400, DILUTION_ERRORS.issuedInFuture, {
      params: { date: invoice.today },
      errors: { issueDate: [{ code: DILUTION_ERRORS.issuedInFuture, params: { date: invoice.today } }] },
    });
  }
  const open = creditableCents(invoice);
  if (record.amountCents > open) {
    const params = { number: invoice.invoice_number, open: centsToDecimalString(open), currency: invoice.currency };
    throw apiError(409, DILUTION_ERRORS.aboveOpen, { params, errors: { amount: [{ code: DILUTION_ERRORS.aboveOpen, params }] } });
  }
  const taken = await selectOne(
    'SELECT 1 AS taken FROM credit_notes WHERE invoice_id = :invoiceId AND number = :number',
    { invoiceId: invoice.id, number: record.number },
    { transaction },
  );
  if (taken) {
    const params = { number: record.number };
    throw apiError(409, DILUTION_ERRORS.numberTaken, { params, errors: { number: [{ code: DILUTION_ERRORS.numberTaken, params }] } });
  }

  const owedBefore = toCents(invoice.amount) - toCents(invoice.paid_amount) - toCents(invoice.credited_amount);
  const { rows } = await execute<{ id: string }>(
    `INSERT INTO credit_notes (invoice_id, number, issue_date, amount, reason, source, dispute_id, document_id, booked_on, created_by)
     VALUES (:invoiceId, :number, :issueDate, :amount, :reason, :source, :disputeId, :documentId, ${SQL_BUSINESS_TODAY}, :actorId) RETURNING id`,
    {
      invoiceId: invoice.id,
      number: record.number,
      issueDate: record.issueDate,
      amount: centsToDecimalString(record.amountCents),
      reason: record.reason,
      source: record.source,
      disputeId: record.disputeId ?? null,
      documentId: record.documentId ?? null,
      actorId,
    },
    { transaction },
  );
  const id = rows[0].id;
  const chargeback = await chargeExcessAdvance({ invoiceId: invoice.id, creditNoteId: id, reference: record.number, actorId }, transaction);
  const owedAfter = owedBefore - record.amountCents;
  const settles = owedAfter === 0 && invoice.status === 'financed';
  await logActivity(
    {
      action: 'credit_note_recorded',
      userId: actorId,
      entityType: 'invoice',
      entityId: invoice.id,
      ipAddress: ip,
      details: {
        creditNoteId: id,
        invoiceNumber: invoice.invoice_number,
        number: record.number,
        issueDate: record.issueDate,
        amount: centsToNumber(record.amountCents),
        currency: invoice.currency,
        source: record.source,
        reason: record.reason,
        owedBefore: centsToNumber(owedBefore),
        owedAfter: centsToNumber(owedAfter),
        chargeback: centsToNumber(chargeback),
        settlesInvoice: settles,
      },
    },
    transaction,
  );
  if (settles) {
    // Nothing is owed any more: the invoice is paid and settled as by its final payment.
    await execute(`UPDATE invoices SET status = 'paid', paid_at = now() WHERE id = :id`, { id: invoice.id }, { transaction });
    await settleInvoice({ actorId, ip, creditNoteId: id }, invoice, client, transaction);
  }
  return readCreditNote(id, transaction);
}

async function readCreditNote(id: string, transaction?: Transaction): Promise<CreditNoteDto> {
  return toDto((await selectOne<CreditNoteRow>(`${SELECT_CREDIT_NOTES} WHERE n.id = :id`, { id }, { transaction }))!);
}

/**
 * POST /api/invoices/{id}/credit-notes and the invoice page's form (manager):
 * a credit note entered by hand. 400 invalid, 403, 404 unknown invoice, 409
 * (see recordCreditNote).
 */
export async function addCreditNote({ actor, invoiceId, input, ip }: InvoiceCommand<CreditNoteInput>, options: { transaction?: Transaction } = {}): Promise<CreditNoteDto> {
  assertCan(actor, 'record:credit_note');
  const data = parseInput(creditNoteSchema, input);
  return inTransaction(async (transaction) => {
    const locked = await lockCreditedInvoice(invoiceId, transaction);
    if (!locked) throw apiError(404, DILUTION_ERRORS.invoiceNotFound);
    return recordCreditNote(
      locked,
      { number: data.number, issueDate: data.issueDate, amountCents: data.amount, reason: data.reason, source: 'manual' },
      { actorId: actor.id, ip },
      transaction,
    );
  }, options.transaction);
}

/** GET /api/invoices/{id}/credit-notes and the invoice page: oldest first, with the full count. 404 unknown invoice. */
export async function listCreditNotes(invoiceId: string, options: { limit?: number; offset?: number } = {}): Promise<{ items: CreditNoteDto[]; total: number }> {
  const invoice = isUuid(invoiceId) ? await selectOne('SELECT id FROM invoices WHERE id = :invoiceId', { invoiceId }) : null;
  if (!invoice) throw apiError(404, DILUTION_ERRORS.invoiceNotFound);
  const { limit, offset } = pageBounds(options);
  const { rows, total } = await selectPage<CreditNoteRow>(
    `${SELECT_CREDIT_NOTES} WHERE n.invoice_id = :invoiceId ORDER BY n.created_at, n.id LIMIT :limit OFFSET :offset`,
    'SELECT count(*)::int AS total FROM credit_notes WHERE invoice_id = :invoiceId',
    { invoiceId, limit, offset },
  );
  return { items: rows.map(toDto), total };
}
