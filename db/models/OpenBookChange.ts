import { bigint, day, integer, primaryKey, tableModel, uuid } from './columns.ts';

const columns = {
  invoiceId: primaryKey(uuid),
  /** 'YYYY-MM-DD': the Croatian business day of the change. */
  day: primaryKey(day),
  clientId: uuid,
  customerId: uuid,
  /** 'YYYY-MM-DD': the invoice's due date. */
  dueDate: day,
  /** The change of the open amount, in cents (INT8: a number). */
  openCents: bigint,
  /** +1 the invoice became open that day, −1 it stopped being open, 0 neither. */
  invoices: integer,
};

/**
 * How the factor's open amount on one invoice changed on one day (docs/collections.md#ageing):
 * written only by the database's triggers (migration 2026.11.28T01.00.00.open-book), read by the ageing report.
 */
export class OpenBookChange extends tableModel('open_book_changes', columns, { timestamps: false }) {}
