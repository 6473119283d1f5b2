import { withId } from './base.ts';
import { defaulted, instant, money, nullable, oneOf, tableModel, text, uuid } from './columns.ts';
import { INVOICE_DISPUTE_OUTCOMES, INVOICE_DISPUTE_SOURCES } from './enums.ts';

const columns = withId({
  invoiceId: uuid,
  reason: text,
  source: oneOf(INVOICE_DISPUTE_SOURCES),
  openedAt: defaulted(instant),
  openedBy: nullable(uuid),
  openedIp: nullable(text),
  outcome: nullable(oneOf(INVOICE_DISPUTE_OUTCOMES)),
  /** With outcome 'reduced': what the debtor still owes. */
  agreedAmount: nullable(money),
  resolutionNote: nullable(text),
  resolvedAt: nullable(instant),
  resolvedBy: nullable(uuid),
});

/** A debtor's dispute of an invoice, opened through its link or by staff on its behalf, and how a manager resolved it. */
export class InvoiceDispute extends tableModel('invoice_disputes', columns, { timestamps: false }) {}
