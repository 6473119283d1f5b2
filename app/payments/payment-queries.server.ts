import type { Transaction } from 'sequelize';
import { selectOne, selectRows } from '../db.server.ts';
import { containsPattern } from '../search.server.ts';
import { apiError } from '../utils/api.server.ts';
import { iso, money } from '../utils/api-values.ts';
import { PAYMENT_MESSAGES, PAYMENT_STATUSES, PAYMENT_TABS, type PaymentTab } from './schemas.ts';
import { SQL_BUSINESS_TODAY, sqlBusinessLocal, sqlFromBusinessLocal } from '../utils/business-time.ts';
import { isUuid } from '../utils/validation.ts';
import type { Invoice, Payment } from '../../db/models/index.ts';
import type { InvoicePartyNames } from '../invoices/invoice-dto.server.ts';
import type { RowOf } from '../../db/models/rows.ts';
import { pageBounds } from '../utils/list-url.ts';

/**
 * Reading payments (docs/domain-model.md): one payment in the API's shape,
 * the /payments list and its tab counts, and the summary cards.
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

/** The payment with its invoice's figures and parties (SELECT_PAYMENT). */
type PaymentRow = RowOf<
  typeof Payment,
  'id' | 'invoice_id' | 'amount' | 'currency' | 'payment_method' | 'status' | 'reference' | 'notes' | 'source' | 'created_at' | 'processed_at'
> &
  RowOf<typeof Invoice, 'invoice_number' | 'client_id' | 'due_date'> & {
    invoice_amount: RowOf<typeof Invoice>['amount'];
    invoice_paid_amount: RowOf<typeof Invoice>['paid_amount'];
    invoice_status: RowOf<typeof Invoice>['status'];
    overdue: boolean;
  } & InvoicePartyNames;

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
    createdAt: iso(row.created_at),
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
  const { limit, offset } = pageBounds(options);
  const replacements: Record<string, unknown> = { limit, offset };
  const conditions: string[] = [];
  const search = searchCondition(options.q, replacements);
  if (search) conditions.push(search);
  const status = options.status ?? (options.tab && options.tab !== 'all' ? options.tab : null);
  if (status) {
    if (!(PAYMENT_STATUSES as readonly string[]).includes(status)) throw apiError(400, PAYMENT_MESSAGES.invalidStatus, { errors: { status: [PAYMENT_MESSAGES.invalidStatus] } });
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
 *     paid_amount − credited_amount) of financed invoices whose due date is before today, and
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
       (SELECT coalesce(sum(amount - paid_amount - credited_amount), 0)::numeric(15,2)::text FROM invoices WHERE status = 'financed' AND due_date < ${TODAY}) AS overdue_amount,
       (SELECT count(*)::int FROM invoices WHERE status = 'financed' AND due_date < ${TODAY}) AS overdue_count,
       (SELECT coalesce(sum(amount), 0)::numeric(15,2)::text FROM payments WHERE status = 'failed') AS failed_amount,
       (SELECT count(*)::int FROM payments WHERE status = 'failed') AS failed_count`,
  ))!;
  const card = (prefix: string) => ({ amount: money(String(row[`${prefix}_amount`])), count: Number(row[`${prefix}_count`]) });
  return { pending: card('pending'), confirmedThisMonth: card('confirmed'), overdue: card('overdue'), failed: card('failed') };
}
