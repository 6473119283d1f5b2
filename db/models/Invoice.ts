import type { NonAttribute } from 'sequelize';
import { withAudit } from './base.ts';
import { boolean, char, day, defaulted, instant, money, nullable, oneOf, tableModel, text, uuid } from './columns.ts';
import { INVOICE_SOURCES, INVOICE_STATUSES, INVOICE_VERIFICATION_STATUSES } from './enums.ts';
import type { Client } from './Client.ts';
import type { Customer } from './Customer.ts';
import type { Document } from './Document.ts';
import type { InvoiceLine } from './InvoiceLine.ts';
import type { Payment } from './Payment.ts';
import type { Payout } from './Payout.ts';

const columns = withAudit({
  clientId: uuid,
  customerId: uuid,
  invoiceNumber: text,
  status: defaulted(oneOf(INVOICE_STATUSES)),
  verificationStatus: defaulted(oneOf(INVOICE_VERIFICATION_STATUSES)),
  amount: money,
  currency: defaulted(char(3)),
  issueDate: day,
  dueDate: day,
  description: nullable(text),
  /** The advance paid to the client at financing. */
  factorAmount: nullable(money),
  factorFee: nullable(money),
  /** VAT on factorFee (the fee documents' VAT). */
  factorFeeVat: nullable(money),
  /** The agreement's one-off documentation fee when this was its first financing (part of factorFee). */
  documentationFee: defaulted(money),
  /** The agreement version the financing used. */
  agreementId: nullable(uuid),
  /** What the debtor quotes when it pays the factor ('HR00 2026-7-000042'), given at the first financing. */
  paymentReference: defaulted(nullable(text)),
  /** The debtor disputes the invoice; the reason is kept while it does. */
  disputed: defaulted(boolean),
  disputeReason: nullable(text),
  /** Sum of confirmed collections. */
  paidAmount: defaulted(money),
  /** Sum of pending collections, kept by triggers on payments. */
  pendingAmount: defaulted(money),
  /** Sum of the credit notes on the invoice, kept by a trigger on credit_notes. */
  creditedAmount: defaulted(money),
  source: defaulted(oneOf(INVOICE_SOURCES)),
  ublDocumentId: nullable(uuid),
  verifiedBy: nullable(uuid),
  verifiedAt: nullable(instant),
  approvedBy: nullable(uuid),
  approvedAt: nullable(instant),
  financedBy: nullable(uuid),
  financedAt: nullable(instant),
  rejectedBy: nullable(uuid),
  rejectedAt: nullable(instant),
  rejectionReason: nullable(text),
  paidAt: nullable(instant),
  /** Charged back to the client (docs/lifecycle.md#recourse-and-write-off); NULL by when the daily job did it. */
  chargedBackAt: nullable(instant),
  chargedBackBy: nullable(uuid),
  chargeBackReason: nullable(text),
  /** Written off (approved write-off request). */
  writtenOffAt: nullable(instant),
  writtenOffBy: nullable(uuid),
  /** 'YYYY-MM-DD': the business day it left the factor's book, charged back or written off (set by a trigger; docs/collections.md#ageing). */
  leftBookOn: defaulted(nullable(day)),
});

/** A client's invoice to a customer, offered to the factor. Money fields are exact decimal strings. */
export class Invoice extends tableModel('invoices', columns) {
  declare client?: NonAttribute<Client>;
  declare customer?: NonAttribute<Customer>;
  declare ublDocument?: NonAttribute<Document | null>;
  declare lines?: NonAttribute<InvoiceLine[]>;
  declare payments?: NonAttribute<Payment[]>;
  declare payouts?: NonAttribute<Payout[]>;
  declare documents?: NonAttribute<Document[]>;
}
