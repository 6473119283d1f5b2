import { DataTypes, type CreationOptional, type Sequelize } from 'sequelize';
import { TimestampedModel, tableOptions, withTimestamps } from './base.ts';
import type { LedgerAdjustmentStatus } from './enums.ts';

/** A manual adjustment of a client's account asked by a manager; above the book's four-eyes amount another manager decides. */
export class LedgerAdjustment extends TimestampedModel<LedgerAdjustment> {
  declare clientId: string;
  declare invoiceId: string | null;
  declare amount: string;
  declare reason: string;
  declare status: CreationOptional<LedgerAdjustmentStatus>;
  declare requestedBy: string | null;
  declare requestedAt: CreationOptional<Date>;
  declare decidedBy: string | null;
  declare decidedAt: Date | null;
  declare rejectionReason: string | null;

  static initModel(sequelize: Sequelize) {
    return LedgerAdjustment.init(
      withTimestamps({
        clientId: DataTypes.UUID,
        invoiceId: DataTypes.UUID,
        amount: DataTypes.DECIMAL(15, 2),
        reason: DataTypes.TEXT,
        status: DataTypes.TEXT,
        requestedBy: DataTypes.UUID,
        requestedAt: DataTypes.DATE,
        decidedBy: DataTypes.UUID,
        decidedAt: DataTypes.DATE,
        rejectionReason: DataTypes.TEXT,
      }),
      tableOptions(sequelize, 'ledger_adjustments'),
    );
  }
}
