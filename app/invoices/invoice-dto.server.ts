import type { Transaction } from 'sequelize';
import { selectOne } from '../db.server.ts';
import { centsToNumber, toCents } from '../utils/money.ts';
import type { InvoiceStatus } from './schemas.ts';
import { isUuid } from '../utils/validation.ts';

/**
 * One invoice as the invoice modules read it: the row, the read that joins its
 * parties, and the API's shape of it (docs/domain-model.md). Shared by the
 * lists (./invoice-queries.server.ts), creation (./invoice-create.server.ts)
 * and the transitions (./invoice-transition.server.ts).
 */

export interface InvoiceRow {
  id: string;
  client_id: string;
  customer_id: string;
  invoice_number: string;
  status: InvoiceStatus;
  verification_status: 'pending' | 'verified' | 'failed';
  amount: string;
  currency: string;
  issue_date: string;
  due_date: string;
  description: string | null;
  factor_amount: string | null;
  factor_fee: string | null;
  paid_amount: string;
  pending_amount: string;
  source: 'manual' | 'ubl';
  ubl_document_id: string | null;
  verified_by: string | null;
  verified_at: Date | null;
  approved_by: string | null;
  approved_at: Date | null;
  financed_by: string | null;
  financed_at: Date | null;
  rejected_by: string | null;
  rejected_at: Date | null;
  rejection_reason: string | null;
  paid_at: Date | null;
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
}
export interface InvoiceListRow extends InvoiceRow {
  client_name: string;
  customer_name: string;
}

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
  source: 'manual' | 'ubl';
}

export const money = (value: string) => centsToNumber(toCents(value));
export const moneyOrNull = (value: string | null) => (value === null ? null : money(value));
export const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

export function toInvoiceDto(row: InvoiceListRow): InvoiceDto {
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
    factorAmount: moneyOrNull(row.factor_amount),
    factorFee: moneyOrNull(row.factor_fee),
    createdAt: iso(row.created_at)!,
    clientId: row.client_id,
    clientName: row.client_name,
    customerId: row.customer_id,
    customerName: row.customer_name,
    paidAmount: money(row.paid_amount),
    source: row.source,
  };
}

export const SELECT_INVOICE = `
  SELECT i.*, c.company_name AS client_name, cu.company_name AS customer_name
    FROM invoices i
    JOIN clients c ON c.id = i.client_id
    JOIN customers cu ON cu.id = i.customer_id`;

export async function readInvoice(id: string, transaction?: Transaction): Promise<InvoiceListRow | null> {
  if (!isUuid(id)) return null;
  return selectOne<InvoiceListRow>(`${SELECT_INVOICE} WHERE i.id = :id`, { id }, { transaction });
}
