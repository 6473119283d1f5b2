import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { tableOptions } from './base.ts';
import type { OpenBookPeriod, OpenBookScope } from './enums.ts';

/**
 * A row of the open book's sums (docs/collections.md#ageing): a client's, a customer's or a due date's changes of every
 * day, a calendar year or a month; open_book_totals and open_book_deltas have these columns.
 */
abstract class OpenBookSum<M extends OpenBookSum<M>> extends Model<InferAttributes<M>, InferCreationAttributes<M>> {
  declare id: CreationOptional<number>;
  declare scope: OpenBookScope;
  /** The client or customer (scope 'client' / 'customer'). */
  declare partyId: string | null;
  /** 'YYYY-MM-DD' (scope 'due_date'). */
  declare dueDate: string | null;
  /** Every day ('all'), or the calendar year or month starting on periodStart. */
  declare period: OpenBookPeriod;
  /** 'YYYY-MM-DD'; null with 'all'. */
  declare periodStart: string | null;
  /** Cents (INT8: a number). */
  declare openCents: number;
  declare invoices: number;
}

const SUM_ATTRIBUTES = {
  id: { type: DataTypes.BIGINT, primaryKey: true, autoIncrement: true },
  scope: DataTypes.TEXT,
  partyId: DataTypes.UUID,
  dueDate: DataTypes.DATEONLY,
  period: DataTypes.TEXT,
  periodStart: DataTypes.DATEONLY,
  openCents: DataTypes.BIGINT,
  invoices: DataTypes.BIGINT,
};

/** The sums, one row per key; written only by the database (its compaction of open_book_deltas and the migration's fill). */
export class OpenBookTotal extends OpenBookSum<OpenBookTotal> {
  static initModel(sequelize: Sequelize) {
    return OpenBookTotal.init(SUM_ATTRIBUTES, tableOptions(sequelize, 'open_book_totals', { timestamps: false }));
  }
}

/** What the writers added since the last compaction, insert-only; written only by the database's triggers. */
export class OpenBookDelta extends OpenBookSum<OpenBookDelta> {
  static initModel(sequelize: Sequelize) {
    return OpenBookDelta.init(SUM_ATTRIBUTES, tableOptions(sequelize, 'open_book_deltas', { timestamps: false }));
  }
}
