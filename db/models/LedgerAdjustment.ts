import { withRequestColumns } from './base.ts';
import { money, nullable, tableModel, uuid } from './columns.ts';
import { LEDGER_ADJUSTMENT_STATUSES } from './enums.ts';

const columns = withRequestColumns(LEDGER_ADJUSTMENT_STATUSES, {
  clientId: uuid,
  invoiceId: nullable(uuid),
  amount: money,
});

/** A manual adjustment of a client's account asked by a manager; above the book's four-eyes amount another manager decides. */
export class LedgerAdjustment extends tableModel('ledger_adjustments', columns) {}
