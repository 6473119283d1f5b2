import type { NonAttribute } from 'sequelize';
import { withAudit } from './base.ts';
import { arrayOf, char, day, defaulted, instant, integer, money, nullable, numeric, oneOf, tableModel, text, uuid } from './columns.ts';
import { OUTGOING_EINVOICE_PURPOSES, OUTGOING_EINVOICE_STATUSES, OUTGOING_EINVOICE_TYPE_CODES } from './enums.ts';
import type { Client } from './Client.ts';
import type { Invoice } from './Invoice.ts';

const columns = withAudit({
  /** FF-YYYY-NNNNNN */
  number: text,
  year: integer,
  sequence: integer,
  invoiceId: uuid,
  clientId: uuid,
  issuedAt: instant,
  /** 'YYYY-MM-DD' in Croatia. */
  issueDate: day,
  dueDate: day,
  currency: defaulted(char(3)),
  netAmount: money,
  vatRate: numeric(5, 2),
  vatAmount: money,
  grossAmount: money,
  /** 'HR00 2026-000001' */
  paymentReference: text,
  ublXml: text,
  ublSha256: text,
  status: defaulted(oneOf(OUTGOING_EINVOICE_STATUSES)),
  documentId: nullable(text),
  sentAt: nullable(instant),
  error: nullable(text),
  /** The rule ids the document broke when checked before sending (then status failed). */
  ruleFailures: nullable(arrayOf(text)),
  attempts: defaulted(integer),
  /** Why the document was written: the fee at financing, or at settlement a completing invoice or a credit note (type 381). */
  purpose: defaulted(oneOf(OUTGOING_EINVOICE_PURPOSES)),
  typeCode: defaulted(oneOf(OUTGOING_EINVOICE_TYPE_CODES)),
  /** The fee invoice a completion or credit note refers to. */
  precedingId: nullable(uuid),
});

/**
 * The factor's fee e-invoice to its client for one financed invoice (UBL 2.1,
 * HR CIUS), and its sending through the intermediary. Issued only by
 * app/einvoices/outgoing.server.ts, which draws the gapless number.
 */
export class OutgoingEInvoice extends tableModel('outgoing_einvoices', columns) {
  declare invoice?: NonAttribute<Invoice>;
  declare client?: NonAttribute<Client>;
}
