import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import type { OpenBookPeriod, OpenBookScope } from './enums.ts';

/**
 * What the writers added to open_book_totals since its last compaction, insert-only (docs/collections.md#ageing);
 * written only by the database's triggers, moved into open_book_totals by the hourly housekeeping.
 */
export class OpenBookDelta extends Model<InferAttributes<OpenBookDelta>, InferCreationAttributes<OpenBookDelta>> {
  declare id: CreationOptional<number>;
  declare scope: OpenBookScope;
  declare partyId: string | null;
  declare dueDate: string | null;
  declare period: OpenBookPeriod;
  declare periodStart: string | null;
  declare openCents: number;
  declare invoices: number;

  static initModel(sequelize: Sequelize) {
    return OpenBookDelta.init(
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
      { sequelize, tableName: 'open_book_deltas', underscored: true, timestamps: false },
    );
  }
}
