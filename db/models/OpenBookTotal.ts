import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import type { OpenBookPeriod, OpenBookScope } from './enums.ts';

/**
 * The sums of open_book_changes per client, customer or due date, over every day, a calendar year or a month
 * (docs/collections.md#ageing), one row per key; written only by the database (its compaction of open_book_deltas).
 */
export class OpenBookTotal extends Model<InferAttributes<OpenBookTotal>, InferCreationAttributes<OpenBookTotal>> {
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

  static initModel(sequelize: Sequelize) {
    return OpenBookTotal.init(
      {
        id: { type: DataTypes.BIGINT, primaryKey: true, autoIncrement: true },
        scope: DataTypes.TEXT,
        partyId: DataTypes.UUID,
        dueDate: DataTypes.DATEONLY,
        period: DataTypes.TEXT,
        periodStart: DataTypes.DATEONLY,
        openCents: DataTypes.BIGINT,
        invoices: DataTypes.BIGINT,
      },
      { sequelize, tableName: 'open_book_totals', underscored: true, timestamps: false },
    );
  }
}
