import type { Transaction } from 'sequelize';
import { selectOne } from '../db.server.ts';
import { iso, money } from '../utils/api-values.ts';
import type { InvoiceStatus } from './schemas.ts';
import { isUuid } from '../utils/validation.ts';
import type { Client, Customer, Invoice } from '../../db/models/index.ts';
import type { RowOf } from '../../db/models/rows.ts';

/**
 * One invoice as the invoice modules read it: the row, the read that joins its
 * parties, and the API's shape of it (docs/domain-model.md). Shared by the
 * lists (./invoice-queries.server.ts), creation (./invoice-create.server.ts)
 * and the transitions (./invoice-transition.server.ts).
 */

export type InvoiceRow = RowOf<typeof Invoice>;
/** The names of an invoice's parties, as the invoice queries join them (`company_name AS client_name`, `… AS customer_name`). */
export type InvoicePartyNames = { client_name: RowOf<typeof Client>['company_name']; customer_name: RowOf<typeof Customer>['company_name'] };
/** The invoice with its parties' names (SELECT_INVOICE). */
export type InvoiceListRow = InvoiceRow & InvoicePartyNames;

/** An invoice in the API's shape: docs/domain-model.md Invoice fields, plus the parties (docs/api.md) and paidAmount. */
export interface InvoiceDto {
  id: string;
  invoiceNumber: string;
  status: InvoiceStatus;
  verificationStatus: 'pending' | 'verified' | 'failed';
  amount: number;
  currency: string;
  issueDate: string;
  dueDate: string;
  description: string | null;
  factorAmount: number | null;
  factorFee: number | null;
  createdAt: string;
  clientId: string;
  clientName: string;
  customerId: string;
  customerName: string;
  paidAmount: number;
  /** The credit notes on the invoice: what the debtor no longer owes (docs/collections.md#dilution-and-disputes-resolved). */
  creditedAmount: number;
  source: 'manual' | 'ubl';
  /** What the debtor quotes when it pays the factor, from the first financing (docs/collections.md). */
  paymentReference: string | null;
  /** The debtor disputes the invoice, with its reason. */
  disputed: boolean;
  disputeReason: string | null;
  /** Charged back to the client (docs/collections.md#recourse-and-write-off); the reason when a manager did it early, null when the recourse period passed. */
  chargedBackAt: string | null;
  chargeBackReason: string | null;
  writtenOffAt: string | null;
}

/**
 * The invoice columns toInvoiceDto reads. The lists select these, not every column: the driver parses each value of
 * each row it is given (a timestamp into a Date costs microseconds), and an invoice has some twenty columns the API's
 * shape does not show.
 */
export const INVOICE_DTO_COLUMNS = [
  'id',
  'invoice_number',
  'status',
  'verification_status',
  'amount',
  'currency',
  'issue_date',
  'due_date',
  'description',
  'factor_amount',
  'factor_fee',
  'created_at',
  'client_id',
  'customer_id',
  'paid_amount',
  'credited_amount',
  'source',
  'payment_reference',
  'disputed',
  'dispute_reason',
  'charged_back_at',
  'charge_back_reason',
  'written_off_at',
] as const satisfies ReadonlyArray<keyof InvoiceRow>;

/** The given columns of an invoice with its parties' names. */
export type InvoiceColumnsRow<Column extends keyof InvoiceRow> = Pick<InvoiceRow, Column> & InvoicePartyNames;
/** What toInvoiceDto reads. */
export type InvoiceDtoRow = InvoiceColumnsRow<(typeof INVOICE_DTO_COLUMNS)[number]>;

export function toInvoiceDto(row: InvoiceDtoRow): InvoiceDto {
  return {
    id: row.id,
    invoiceNumber: row.invoice_number,
    status: row.status,
    verificationStatus: row.verification_status,
    amount: money(row.amount),
    currency: row.currency,
    issueDate: row.issue_date,
    dueDate: row.due_date,
    description: row.description,
    factorAmount: money(row.factor_amount),
    factorFee: money(row.factor_fee),
    createdAt: iso(row.created_at),
    clientId: row.client_id,
    clientName: row.client_name,
    customerId: row.customer_id,
    customerName: row.customer_name,
    paidAmount: money(row.paid_amount),
    creditedAmount: money(row.credited_amount),
    source: row.source,
    paymentReference: row.payment_reference,
    disputed: row.disputed,
    disputeReason: row.dispute_reason,
    chargedBackAt: iso(row.charged_back_at),
    chargeBackReason: row.charge_back_reason,
    writtenOffAt: iso(row.written_off_at),
  };
}

export const SELECT_INVOICE = `
  SELECT i.*, c.company_name AS client_name, cu.company_name AS customer_name
    FROM invoices i
    JOIN clients c ON c.id = i.client_id
    JOIN customers cu ON cu.id = i.customer_id`;

/** SELECT_INVOICE with only the given columns of the invoice, and `more` expressions after them. */
export function selectInvoiceColumns(columns: ReadonlyArray<keyof InvoiceRow>, more = ''): string {
  return SELECT_INVOICE.replace('SELECT i.*,', `SELECT ${columns.map((column) => `i.${column}`).join(', ')},${more ? ` ${more},` : ''}`);
}

export async function readInvoice(id: string, transaction?: Transaction): Promise<InvoiceListRow | null> {
  if (!isUuid(id)) return null;
  return selectOne<InvoiceListRow>(`${SELECT_INVOICE} WHERE i.id = :id`, { id }, { transaction });
}
