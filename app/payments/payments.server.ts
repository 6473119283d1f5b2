import type { Transaction } from 'sequelize';
import { logActivity } from '../activity-log.server.ts';
import { assertCan } from '../auth/permissions.server.ts';
import type { Actor } from '../auth/users.server.ts';
import { execute, inTransaction, selectOne, selectRows } from '../db.server.ts';
import { containsPattern } from '../search.server.ts';
import { openForPaymentSql } from './open-amount.server.ts';
import { apiError, zodFieldErrors } from '../utils/api.server.ts';
import { centsToDecimalString, centsToNumber, toCents } from '../utils/money.ts';
import {
  PAYMENT_MESSAGES,
  PAYMENT_STATUSES,
  PAYMENT_TABS,
  paymentCreateSchema,
  type PaymentCreateInput,
  type PaymentTab,
} from './schemas.ts';
import { applyEntityDecision } from '../workflows/decisions.server.ts';
import { startWorkflowOnEvent } from '../workflows/instances.server.ts';
import { SQL_BUSINESS_TODAY, sqlBusinessLocal, sqlFromBusinessLocal } from '../utils/business-time.ts';
import { isUuid } from '../utils/validation.ts';

/**
 * Collections from the factored invoices' customers (docs/lifecycle.md#payments,
 * docs/domain-model.md, docs/money.md).
 *
 * States: pending → confirmed | failed; confirmed → refunded. Recording is
 * the daily queue ('create:payment'); confirming, failing and refunding are
 * the manager's ('confirm:payment').
 *
 * Applying money: confirming adds the amount to invoices.paid_amount. When
 * the confirmed payments cover the amount, the invoice becomes 'paid', the
 * client's used_credit falls by the advance (factor_amount; usedCredit is the
 * sum of open advances) and the reserve (amount − advance − fee) is released
 * as a pending 'reserve_release' payout to the client's IBAN. A refund of a
 * confirmed payment takes the money back off the invoice; if that payment
 * had settled it, the settlement is undone too (status financed, used credit
 * raised again, the reserve release cancelled) — refused with 409 once the
 * reserve left in a bank file.
 *
 * Recording refuses an amount above what is still open for a new payment:
 * amount − paid_amount − the pending payments (409 naming that figure; one
 * SQL definition with the payable list, ./open-amount.server.ts). That keeps
 * a typed-in payment and the same money from the bank statement from both
 * waiting for confirmation.
 *
 * Lock order (same as app/invoices): payment row, then invoice row, then
 * client row, each SELECT … FOR UPDATE inside one transaction; every
 * transition writes its activity rows in that transaction.
 */

export interface PaymentDto {
  id: string;
  invoiceId: string;
  invoiceNumber: string;
  clientId: string;
  clientName: string;
  customerName: string;
  amount: number;
  currency: string;
  paymentMethod: string;
  status: string;
  /** The invoice's due date. */
  dueDate: string;
  reference: string | null;
  notes: string | null;
  source: 'manual' | 'bank_statement';
  createdAt: string;
  processedAt: string | null;
  /** Pending and the invoice past its due date (docs/screens.md overdue badge). */
  overdue: boolean;
  /** The invoice's amount and confirmed collections so far, so part-payments show as "paid / amount". */
  invoiceAmount: number;
  invoicePaidAmount: number;
  invoiceStatus: string;
}

interface PaymentRow {
  id: string;
  invoice_id: string;
  invoice_number: string;
  client_id: string;
  client_name: string;
  customer_name: string;
  amount: string;
  currency: string;
  payment_method: string;
  status: string;
  due_date: string;
  reference: string | null;
  notes: string | null;
  source: 'manual' | 'bank_statement';
  created_at: Date;
  processed_at: Date | null;
  overdue: boolean;
  invoice_amount: string;
  invoice_paid_amount: string;
  invoice_status: string;
}

const money = (value: string) => centsToNumber(toCents(value));
const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

/** Today in Croatia: due dates are Croatian calendar days. */
const TODAY = SQL_BUSINESS_TODAY;

const SELECT_PAYMENT = `
  SELECT p.id, p.invoice_id, p.amount, p.currency, p.payment_method, p.status, p.reference, p.notes, p.source,
         p.created_at, p.processed_at,
         i.invoice_number, i.client_id, to_char(i.due_date, 'YYYY-MM-DD') AS due_date,
         i.amount AS invoice_amount, i.paid_amount AS invoice_paid_amount, i.status AS invoice_status,
         c.company_name AS client_name, cu.company_name AS customer_name,
         (p.status = 'pending' AND i.due_date < ${TODAY}) AS overdue
    FROM payments p
    JOIN invoices i ON i.id = p.invoice_id
    JOIN clients c ON c.id = i.client_id
    JOIN customers cu ON cu.id = i.customer_id`;

export function toPaymentDto(row: PaymentRow): PaymentDto {
  return {
    id: row.id,
    invoiceId: row.invoice_id,
    invoiceNumber: row.invoice_number,
    clientId: row.client_id,
    clientName: row.client_name,
    customerName: row.customer_name,
    amount: money(row.amount),
    currency: row.currency,
    paymentMethod: row.payment_method,
    status: row.status,
    dueDate: row.due_date,
    reference: row.reference,
    notes: row.notes,
    source: row.source,
    createdAt: iso(row.created_at)!,
    processedAt: iso(row.processed_at),
    overdue: row.overdue,
    invoiceAmount: money(row.invoice_amount),
    invoicePaidAmount: money(row.invoice_paid_amount),
    invoiceStatus: row.invoice_status,
  };
}

/** The API's answer (docs/domain-model.md Payment fields first). */
export function paymentJson(payment: PaymentDto) {
  return {
    id: payment.id,
    invoiceId: payment.invoiceId,
    invoiceNumber: payment.invoiceNumber,
    clientName: payment.clientName,
    customerName: payment.customerName,
    amount: payment.amount,
    currency: payment.currency,
    paymentMethod: payment.paymentMethod,
    status: payment.status,
    dueDate: payment.dueDate,
    reference: payment.reference,
    notes: payment.notes,
    createdAt: payment.createdAt,
    processedAt: payment.processedAt,
    overdue: payment.overdue,
    source: payment.source,
    invoiceAmount: payment.invoiceAmount,
    invoicePaidAmount: payment.invoicePaidAmount,
  };
}

export async function getPayment(id: string, transaction?: Transaction): Promise<PaymentDto> {
  const row = isUuid(id) ? await selectOne<PaymentRow>(`${SELECT_PAYMENT} WHERE p.id = :id`, { id }, { transaction }) : null;
  if (!row) throw apiError(404, PAYMENT_MESSAGES.notFound);
  return toPaymentDto(row);
}

// ---------------------------------------------------------------------------
// Recording

interface LockedInvoice {
  id: string;
  client_id: string;
  invoice_number: string;
  status: string;
  amount: string;
  paid_amount: string;
  factor_amount: string | null;
  factor_fee: string | null;
  currency: string;
  /** What a new payment may still cover (./open-amount.server.ts). */
  open_for_payment: string;
}

async function lockInvoice(id: string, transaction: Transaction): Promise<LockedInvoice | null> {
  return selectOne<LockedInvoice>(
    `SELECT i.id, i.client_id, i.invoice_number, i.status, i.amount, i.paid_amount, i.factor_amount, i.factor_fee, i.currency,
            ${openForPaymentSql('i')} AS open_for_payment
       FROM invoices i WHERE i.id = :id FOR UPDATE`,
    { id },
    { transaction },
  );
}

/** Cents a new payment may still cover on an invoice: amount − confirmed − pending payments (≥ 0). */
export async function expectedCents(invoice: Pick<LockedInvoice, 'id'>, transaction?: Transaction): Promise<number> {
  const row = await selectOne<{ open: string }>(`SELECT ${openForPaymentSql('i')} AS open FROM invoices i WHERE i.id = :id`, { id: invoice.id }, { transaction });
  return toCents(row?.open ?? '0');
}

export interface RecordOptions {
  transaction?: Transaction;
  /** Set by the bank-statement import: the entry's reference and source. */
  bank?: { entryRef: string };
}

/**
 * POST /api/payments: a pending payment on a payable invoice (financed,
 * amount > paid_amount). 400 invalid ('Invoice is required', 'Amount is
 * required', unknown invoice on the field), 403, 409 not payable or above
 * what is still expected (message names the figure).
 */
export async function recordPayment(
  { actor, input, ip }: { actor: Actor; input: PaymentCreateInput; ip?: string | null },
  options: RecordOptions = {},
): Promise<PaymentDto> {
  assertCan(actor, 'create:payment');
  // Domain functions validate again, so a caller that skipped the schema cannot write bad data.
  const parsed = paymentCreateSchema.safeParse(input);
  if (!parsed.success) throw apiError(400, parsed.error.issues[0]?.message ?? 'Invalid input', zodFieldErrors(parsed.error));
  const data = parsed.data;

  const run = async (transaction: Transaction) => {
    const invoice = await lockInvoice(data.invoiceId, transaction);
    if (!invoice) throw apiError(400, PAYMENT_MESSAGES.invoiceNotFound, { invoiceId: [PAYMENT_MESSAGES.invoiceNotFound] });
    if (invoice.status !== 'financed' || toCents(invoice.amount) <= toCents(invoice.paid_amount)) {
      const message = `${PAYMENT_MESSAGES.invoiceNotPayable}: ${invoice.invoice_number} is ${invoice.status}`;
      throw apiError(409, message, { invoiceId: [message] });
    }
    // Read under the row lock: a payment recorded meanwhile is already in pending_amount.
    const expected = toCents(invoice.open_for_payment);
    if (data.amount > expected) {
      const message = `${PAYMENT_MESSAGES.amountAboveOpen} (${centsToDecimalString(expected)} ${invoice.currency})`;
      throw apiError(409, message, { amount: [message] });
    }
    const { rows } = await execute<{ id: string }>(
      `INSERT INTO payments (invoice_id, amount, currency, payment_method, status, reference, notes, source, bank_entry_ref, recorded_by)
       VALUES (:invoiceId, :amount, :currency, :method, 'pending', :reference, :notes, :source, :bankEntryRef, :actorId)
       RETURNING id`,
      {
        invoiceId: invoice.id,
        amount: centsToDecimalString(data.amount),
        currency: invoice.currency,
        method: data.paymentMethod,
        reference: data.reference ?? null,
        notes: data.notes ?? null,
        source: options.bank ? 'bank_statement' : 'manual',
        bankEntryRef: options.bank?.entryRef ?? null,
        actorId: actor.id,
      },
      { transaction },
    );
    const id = rows[0].id;
    await logActivity(
      {
        action: 'payment_recorded',
        userId: actor.id,
        entityType: 'payment',
        entityId: id,
        ipAddress: ip,
        details: {
          invoiceId: invoice.id,
          invoiceNumber: invoice.invoice_number,
          amount: centsToNumber(data.amount),
          currency: invoice.currency,
          paymentMethod: data.paymentMethod,
          reference: data.reference ?? null,
          source: options.bank ? 'bank_statement' : 'manual',
          ...(options.bank ? { bankEntryRef: options.bank.entryRef } : {}),
          toStatus: 'pending',
        },
      },
      transaction,
    );
    // By hand, over the API or from a bank statement: the payment's processing workflow starts with it.
    await startWorkflowOnEvent({ event: 'payment_recorded', entityType: 'payment', entityId: id, actor, ip }, { transaction });
    return getPayment(id, transaction);
  };
  return inTransaction(run, options.transaction);
}

// ---------------------------------------------------------------------------
// Transitions

interface LockedPayment {
  id: string;
  invoice_id: string;
  amount: string;
  status: string;
}

async function lockPayment(id: string, transaction: Transaction): Promise<LockedPayment> {
  const row = isUuid(id)
    ? await selectOne<LockedPayment>('SELECT id, invoice_id, amount, status FROM payments WHERE id = :id FOR UPDATE', { id }, { transaction })
    : null;
  if (!row) throw apiError(404, PAYMENT_MESSAGES.notFound);
  return row;
}

interface LockedClient {
  id: string;
  company_name: string;
  iban: string | null;
  used_credit: string;
}

async function lockClient(id: string, transaction: Transaction): Promise<LockedClient> {
  return (await selectOne<LockedClient>('SELECT id, company_name, iban, used_credit FROM clients WHERE id = :id FOR UPDATE', { id }, { transaction }))!;
}

type Args = { actor: Actor; id: string; ip?: string | null };

async function setPaymentStatus(payment: LockedPayment, status: string, actor: Actor, transaction: Transaction) {
  await execute(`UPDATE payments SET status = :status, processed_by = :actorId, processed_at = coalesce(processed_at, now()) WHERE id = :id`, {
    id: payment.id,
    status,
    actorId: actor.id,
  }, { transaction });
}

async function logPayment(action: string, args: Args, payment: LockedPayment, invoice: LockedInvoice, details: Record<string, unknown>, transaction: Transaction) {
  await logActivity(
    {
      action,
      userId: args.actor.id,
      entityType: 'payment',
      entityId: payment.id,
      ipAddress: args.ip,
      details: { invoiceId: invoice.id, invoiceNumber: invoice.invoice_number, amount: money(payment.amount), currency: invoice.currency, fromStatus: payment.status, ...details },
    },
    transaction,
  );
}

/**
 * PUT /api/payments/{id}/confirm (manager): pending → confirmed, applying
 * the money to the invoice and, when it is covered, settling it (see above).
 * 404 unknown, 409 not pending / invoice no longer open / above the open amount.
 */
export async function confirmPayment(args: Args, options: { transaction?: Transaction } = {}): Promise<PaymentDto> {
  assertCan(args.actor, 'confirm:payment');
  const run = async (transaction: Transaction) => {
    const payment = await lockPayment(args.id, transaction);
    if (payment.status !== 'pending') throw apiError(409, `${PAYMENT_MESSAGES.notPending} (this one is ${payment.status})`);
    const invoice = (await lockInvoice(payment.invoice_id, transaction))!;
    const client = await lockClient(invoice.client_id, transaction);
    const amount = toCents(invoice.amount);
    const paidBefore = toCents(invoice.paid_amount);
    const paying = toCents(payment.amount);
    if (invoice.status !== 'financed') throw apiError(409, `${PAYMENT_MESSAGES.invoiceNotPayable}: ${invoice.invoice_number} is ${invoice.status}`);
    if (paidBefore + paying > amount) {
      throw apiError(409, `${PAYMENT_MESSAGES.amountAboveOpen} (${centsToDecimalString(amount - paidBefore)} ${invoice.currency})`);
    }
    const paidAfter = paidBefore + paying;
    const settles = paidAfter === amount;
    await setPaymentStatus(payment, 'confirmed', args.actor, transaction);
    await execute(
      `UPDATE invoices SET paid_amount = :paid, status = CASE WHEN :settles THEN 'paid' ELSE status END,
              paid_at = CASE WHEN :settles THEN now() ELSE paid_at END
        WHERE id = :id`,
      { id: invoice.id, paid: centsToDecimalString(paidAfter), settles },
      { transaction },
    );
    await logPayment('payment_confirmed', args, payment, invoice, {
      toStatus: 'confirmed',
      paidBefore: centsToNumber(paidBefore),
      paidAfter: centsToNumber(paidAfter),
      invoiceAmount: centsToNumber(amount),
      settlesInvoice: settles,
    }, transaction);
    if (settles) await settleInvoice(args, invoice, client, transaction);
    // The confirmation is the payment processing's manual step: its task closes and the instance goes on.
    await applyEntityDecision({ workflowType: 'payment_processing', entityId: payment.id, decision: 'approve', actor: args.actor, summary: 'payment confirmed' }, { transaction });
    return getPayment(payment.id, transaction);
  };
  return inTransaction(run, options.transaction);
}

/** The invoice is covered: used credit falls by the advance, the reserve goes back to the client. */
async function settleInvoice(args: Args, invoice: LockedInvoice, client: LockedClient, transaction: Transaction) {
  const amount = toCents(invoice.amount);
  const advance = toCents(invoice.factor_amount ?? '0');
  const fee = toCents(invoice.factor_fee ?? '0');
  const usedBefore = toCents(client.used_credit);
  // Never below zero: a hand-corrected used_credit must not block a settlement.
  const usedAfter = Math.max(0, usedBefore - advance);
  await execute('UPDATE clients SET used_credit = :used WHERE id = :id', { id: client.id, used: centsToDecimalString(usedAfter) }, { transaction });
  await logActivity(
    {
      action: 'invoice_paid',
      userId: args.actor.id,
      entityType: 'invoice',
      entityId: invoice.id,
      ipAddress: args.ip,
      details: {
        invoiceNumber: invoice.invoice_number,
        amount: centsToNumber(amount),
        currency: invoice.currency,
        fromStatus: 'financed',
        toStatus: 'paid',
        paymentId: args.id,
        factorAmount: centsToNumber(advance),
        usedCreditBefore: centsToNumber(usedBefore),
        usedCreditAfter: centsToNumber(usedAfter),
      },
    },
    transaction,
  );
  const reserve = amount - advance - fee;
  if (reserve <= 0) return;
  // The advance went to this account at financing; it is the fallback when the client's IBAN was cleared since.
  const iban =
    client.iban ??
    (await selectOne<{ iban: string }>(`SELECT iban FROM payouts WHERE invoice_id = :id AND kind = 'advance' ORDER BY created_at DESC LIMIT 1`, { id: invoice.id }, { transaction }))?.iban;
  if (!iban) throw apiError(409, `Client ${client.company_name} has no IBAN for the reserve release`);
  const { rows } = await execute<{ id: string }>(
    `INSERT INTO payouts (client_id, invoice_id, kind, amount, currency, iban, status, created_by)
     VALUES (:clientId, :invoiceId, 'reserve_release', :amount, :currency, :iban, 'pending', :actorId) RETURNING id`,
    { clientId: client.id, invoiceId: invoice.id, amount: centsToDecimalString(reserve), currency: invoice.currency, iban, actorId: args.actor.id },
    { transaction },
  );
  await logActivity(
    {
      action: 'reserve_released',
      userId: args.actor.id,
      entityType: 'payout',
      entityId: rows[0].id,
      ipAddress: args.ip,
      details: {
        invoiceId: invoice.id,
        invoiceNumber: invoice.invoice_number,
        clientName: client.company_name,
        amount: centsToNumber(reserve),
        invoiceAmount: centsToNumber(amount),
        factorAmount: centsToNumber(advance),
        factorFee: centsToNumber(fee),
        iban,
      },
    },
    transaction,
  );
}

/** PUT /api/payments/{id}/fail (manager): pending → failed (the bank returned it, the cheque bounced). */
export async function failPayment(args: Args, options: { transaction?: Transaction } = {}): Promise<PaymentDto> {
  assertCan(args.actor, 'confirm:payment');
  const run = async (transaction: Transaction) => {
    const payment = await lockPayment(args.id, transaction);
    if (payment.status !== 'pending') throw apiError(409, `${PAYMENT_MESSAGES.notPending} (this one is ${payment.status})`);
    const invoice = (await selectOne<LockedInvoice>('SELECT * FROM invoices WHERE id = :id', { id: payment.invoice_id }, { transaction }))!;
    await setPaymentStatus(payment, 'failed', args.actor, transaction);
    await logPayment('payment_failed', args, payment, invoice, { toStatus: 'failed' }, transaction);
    // A failed payment ends its processing: nothing to release, no one to tell of a payment that did not arrive.
    await applyEntityDecision({ workflowType: 'payment_processing', entityId: payment.id, decision: 'reject', actor: args.actor, summary: 'payment failed' }, { transaction });
    return getPayment(payment.id, transaction);
  };
  return inTransaction(run, options.transaction);
}

/**
 * PUT /api/payments/{id}/refund (manager): confirmed → refunded; the money
 * comes off the invoice, and a settlement it made is undone. 409 when not
 * confirmed, or 'Reserve already paid out' once the reserve was exported.
 */
export async function refundPayment(args: Args, options: { transaction?: Transaction } = {}): Promise<PaymentDto> {
  assertCan(args.actor, 'confirm:payment');
  const run = async (transaction: Transaction) => {
    const payment = await lockPayment(args.id, transaction);
    if (payment.status !== 'confirmed') throw apiError(409, `${PAYMENT_MESSAGES.notConfirmed} (this one is ${payment.status})`);
    const invoice = (await lockInvoice(payment.invoice_id, transaction))!;
    const client = await lockClient(invoice.client_id, transaction);
    const paidBefore = toCents(invoice.paid_amount);
    const refunding = toCents(payment.amount);
    // Seeded history may hold refunds of payments never applied; only what was applied comes off.
    const paidAfter = Math.max(0, paidBefore - refunding);
    const reopens = invoice.status === 'paid';
    const details: Record<string, unknown> = { toStatus: 'refunded', paidBefore: centsToNumber(paidBefore), paidAfter: centsToNumber(paidAfter), reopensInvoice: reopens };
    if (reopens) {
      const reserve = await selectOne<{ id: string; status: string; amount: string }>(
        `SELECT id, status, amount FROM payouts WHERE invoice_id = :id AND kind = 'reserve_release' AND status <> 'cancelled' FOR UPDATE`,
        { id: invoice.id },
        { transaction },
      );
      if (reserve && reserve.status !== 'pending') throw apiError(409, PAYMENT_MESSAGES.reserveAlreadyPaidOut);
      const advance = toCents(invoice.factor_amount ?? '0');
      const usedBefore = toCents(client.used_credit);
      await execute('UPDATE clients SET used_credit = :used WHERE id = :id', { id: client.id, used: centsToDecimalString(usedBefore + advance) }, { transaction });
      if (reserve) {
        await execute(`UPDATE payouts SET status = 'cancelled' WHERE id = :id`, { id: reserve.id }, { transaction });
        await logActivity(
          {
            action: 'reserve_cancelled',
            userId: args.actor.id,
            entityType: 'payout',
            entityId: reserve.id,
            ipAddress: args.ip,
            details: { invoiceId: invoice.id, invoiceNumber: invoice.invoice_number, amount: money(reserve.amount), paymentId: payment.id, fromStatus: 'pending', toStatus: 'cancelled' },
          },
          transaction,
        );
      }
      await logActivity(
        {
          action: 'invoice_reopened',
          userId: args.actor.id,
          entityType: 'invoice',
          entityId: invoice.id,
          ipAddress: args.ip,
          details: {
            invoiceNumber: invoice.invoice_number,
            fromStatus: 'paid',
            toStatus: 'financed',
            paymentId: payment.id,
            usedCreditBefore: centsToNumber(usedBefore),
            usedCreditAfter: centsToNumber(usedBefore + advance),
          },
        },
        transaction,
      );
      details.reserveCancelled = reserve?.id ?? null;
    }
    await execute(
      `UPDATE invoices SET paid_amount = :paid, status = CASE WHEN :reopens THEN 'financed' ELSE status END,
              paid_at = CASE WHEN :reopens THEN NULL ELSE paid_at END
        WHERE id = :id`,
      { id: invoice.id, paid: centsToDecimalString(paidAfter), reopens },
      { transaction },
    );
    await setPaymentStatus(payment, 'refunded', args.actor, transaction);
    await execute('UPDATE payments SET processed_at = now() WHERE id = :id', { id: payment.id }, { transaction });
    await logPayment('payment_refunded', args, payment, invoice, details, transaction);
    return getPayment(payment.id, transaction);
  };
  return inTransaction(run, options.transaction);
}

// ---------------------------------------------------------------------------
// Reads

function searchCondition(q: string | null | undefined, replacements: Record<string, unknown>): string | null {
  const term = q?.trim();
  if (!term) return null;
  replacements.pattern = containsPattern(term);
  return `(i.invoice_number ILIKE :pattern OR p.reference ILIKE :pattern OR c.company_name ILIKE :pattern OR cu.company_name ILIKE :pattern)`;
}

const FROM_JOINED = `FROM payments p JOIN invoices i ON i.id = p.invoice_id JOIN clients c ON c.id = i.client_id JOIN customers cu ON cu.id = i.customer_id`;

/**
 * GET /api/payments and the /payments list: newest first; `q` (invoice
 * number, reference, client or customer name); `tab` pending (default on the
 * page) | confirmed | failed | refunded | all, or `status` (API; absent = all).
 */
export async function listPayments(
  options: { q?: string | null; tab?: string | null; status?: string | null; limit?: number; offset?: number } = {},
): Promise<{ items: PaymentDto[]; total: number }> {
  const limit = Math.min(Math.max(Math.trunc(options.limit ?? 100), 1), 1000);
  const offset = Math.max(Math.trunc(options.offset ?? 0), 0);
  const replacements: Record<string, unknown> = { limit, offset };
  const conditions: string[] = [];
  const search = searchCondition(options.q, replacements);
  if (search) conditions.push(search);
  const status = options.status ?? (options.tab && options.tab !== 'all' ? options.tab : null);
  if (status) {
    if (!(PAYMENT_STATUSES as readonly string[]).includes(status)) throw apiError(400, PAYMENT_MESSAGES.invalidStatus, { status: [PAYMENT_MESSAGES.invalidStatus] });
    replacements.status = status;
    conditions.push('p.status = :status');
  }
  const where = conditions.length ? `WHERE ${conditions.join(' AND ')}` : '';
  const [rows, count] = await Promise.all([
    selectRows<PaymentRow>(`${SELECT_PAYMENT} ${where} ORDER BY p.created_at DESC, p.id DESC LIMIT :limit OFFSET :offset`, replacements),
    selectOne<{ total: number }>(`SELECT count(*)::int AS total ${FROM_JOINED} ${where}`, replacements),
  ]);
  return { items: rows.map(toPaymentDto), total: count?.total ?? 0 };
}

export type PaymentTabCounts = Record<PaymentTab, number>;

/** The tabs' counts over the same search, in one query. */
export async function paymentTabCounts(options: { q?: string | null } = {}): Promise<PaymentTabCounts> {
  const replacements: Record<string, unknown> = {};
  const search = searchCondition(options.q, replacements);
  const row = await selectOne<PaymentTabCounts>(
    `SELECT count(*)::int AS "all",
            count(*) FILTER (WHERE p.status = 'pending')::int AS pending,
            count(*) FILTER (WHERE p.status = 'confirmed')::int AS confirmed,
            count(*) FILTER (WHERE p.status = 'failed')::int AS failed,
            count(*) FILTER (WHERE p.status = 'refunded')::int AS refunded
       ${FROM_JOINED} ${search ? `WHERE ${search}` : ''}`,
    replacements,
  );
  return Object.fromEntries(PAYMENT_TABS.map((tab) => [tab, row?.[tab] ?? 0])) as PaymentTabCounts;
}

/**
 * The four summary cards of /payments, one SQL query:
 *  1. pending — payments awaiting confirmation: their sum and count;
 *  2. confirmedThisMonth — payments confirmed (processed) in the current
 *     Croatian calendar month and still confirmed: sum and count;
 *  3. overdue — open receivables past due: the open amount (amount −
 *     paid_amount) of financed invoices whose due date is before today, and
 *     how many invoices;
 *  4. failed — failed payments: count and sum (bounced money to chase).
 */
export interface PaymentSummary {
  pending: { amount: number; count: number };
  confirmedThisMonth: { amount: number; count: number };
  overdue: { amount: number; count: number };
  failed: { amount: number; count: number };
}

export async function paymentSummary(): Promise<PaymentSummary> {
  const row = (await selectOne<Record<string, string | number>>(
    `WITH month AS (SELECT ${sqlFromBusinessLocal(`date_trunc('month', ${sqlBusinessLocal('now()')})`)} AS start)
     SELECT
       (SELECT coalesce(sum(amount), 0)::numeric(15,2)::text FROM payments WHERE status = 'pending') AS pending_amount,
       (SELECT count(*)::int FROM payments WHERE status = 'pending') AS pending_count,
       (SELECT coalesce(sum(amount), 0)::numeric(15,2)::text FROM payments, month WHERE status = 'confirmed' AND processed_at >= month.start) AS confirmed_amount,
       (SELECT count(*)::int FROM payments, month WHERE status = 'confirmed' AND processed_at >= month.start) AS confirmed_count,
       (SELECT coalesce(sum(amount - paid_amount), 0)::numeric(15,2)::text FROM invoices WHERE status = 'financed' AND due_date < ${TODAY}) AS overdue_amount,
       (SELECT count(*)::int FROM invoices WHERE status = 'financed' AND due_date < ${TODAY}) AS overdue_count,
       (SELECT coalesce(sum(amount), 0)::numeric(15,2)::text FROM payments WHERE status = 'failed') AS failed_amount,
       (SELECT count(*)::int FROM payments WHERE status = 'failed') AS failed_count`,
  ))!;
  const card = (prefix: string) => ({ amount: money(String(row[`${prefix}_amount`])), count: Number(row[`${prefix}_count`]) });
  return { pending: card('pending'), confirmedThisMonth: card('confirmed'), overdue: card('overdue'), failed: card('failed') };
}
