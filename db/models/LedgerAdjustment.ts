import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import type { LedgerAdjustmentStatus } from './enums.ts';

/** A manual adjustment of a client's account asked by a manager; above the book's four-eyes amount another manager decides. */
export class LedgerAdjustment extends Model<InferAttributes<LedgerAdjustment>, InferCreationAttributes<LedgerAdjustment>> {
  declare id: CreationOptional<string>;
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
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;

  static initModel(sequelize: Sequelize) {
    return LedgerAdjustment.init(
      {
        id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
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
        createdAt: DataTypes.DATE,
        updatedAt: DataTypes.DATE,
      },
      { sequelize, tableName: 'ledger_adjustments', underscored: true, timestamps: true },
    );
  }
}
