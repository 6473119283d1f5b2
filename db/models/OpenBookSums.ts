import { bigint, day, defaulted, nullable, oneOf, primaryKey, tableModel, uuid } from './columns.ts';
import { OPEN_BOOK_PERIODS, OPEN_BOOK_SCOPES } from './enums.ts';

/**
 * A row of the open book's sums (docs/collections.md#ageing): a client's, a customer's or a due date's changes of every
 * day, a calendar year or a month; open_book_totals and open_book_deltas have these columns.
 */
const columns = {
  id: primaryKey(defaulted(bigint), { autoIncrement: true }),
  scope: oneOf(OPEN_BOOK_SCOPES),
  /** The client or customer (scope 'client' / 'customer'). */
  partyId: nullable(uuid),
  /** Scope 'due_date'. */
  dueDate: nullable(day),
  /** Every day ('all'), or the calendar year or month starting on periodStart. */
  period: oneOf(OPEN_BOOK_PERIODS),
  /** NULL with 'all'. */
  periodStart: nullable(day),
  /** Cents. */
  openCents: bigint,
  invoices: bigint,
};

/** The sums, one row per key; written only by the database (its compaction of open_book_deltas and the migration's fill). */
export class OpenBookTotal extends tableModel('open_book_totals', columns, { timestamps: false }) {}

/** What the writers added since the last compaction, insert-only; written only by the database's triggers. */
export class OpenBookDelta extends tableModel('open_book_deltas', columns, { timestamps: false }) {}
