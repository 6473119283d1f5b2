import type { NonAttribute } from 'sequelize';
import { withTimestamps } from './base.ts';
import { defaulted, instant, integer, nullable, oneOf, tableModel, text, uuid } from './columns.ts';
import { INCOMING_EINVOICE_STATUSES } from './enums.ts';
import type { Invoice } from './Invoice.ts';

const columns = withTimestamps({
  /** The intermediary's document id (unique: a document is recorded once). */
  documentId: text,
  receivedAt: instant,
  xml: text,
  xmlSha256: text,
  status: oneOf(INCOMING_EINVOICE_STATUSES),
  invoiceNumber: nullable(text),
  sellerOib: nullable(text),
  invoiceId: nullable(uuid),
  error: nullable(text),
  attempts: defaulted(integer),
});

/** A document received from the e-invoicing intermediary: imported as an invoice, or kept with the reason it failed. */
export class IncomingEInvoice extends tableModel('incoming_einvoices', columns) {
  declare invoice?: NonAttribute<Invoice>;
}
