import { withId } from './base.ts';
import { day, defaulted, instant, money, nullable, oneOf, tableModel, text, uuid } from './columns.ts';
import { CREDIT_NOTE_SOURCES } from './enums.ts';

const columns = withId({
  invoiceId: uuid,
  /** The credit note's own number, as the client issued it. */
  number: text,
  issueDate: day,
  amount: money,
  reason: text,
  source: oneOf(CREDIT_NOTE_SOURCES),
  /** With source 'dispute': the dispute whose resolution wrote it. */
  disputeId: nullable(uuid),
  /** With source 'ubl': the stored CreditNote XML. */
  documentId: nullable(uuid),
  /** 'YYYY-MM-DD': the business day it was entered. */
  bookedOn: day,
  /** The excess advance charged back to the client with it. */
  chargebackAmount: defaulted(money),
  createdBy: nullable(uuid),
  createdAt: defaulted(instant),
});

/** A credit note on a purchased invoice: it lowers what the debtor owes (app/dilution/credit-notes.server.ts). Never changed or deleted. */
export class CreditNote extends tableModel('credit_notes', columns, { updatedAt: false }) {}
