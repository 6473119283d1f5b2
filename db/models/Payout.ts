import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type NonAttribute, type Sequelize } from 'sequelize';
import type { Client } from './Client.ts';
import type { PayoutKind, PayoutStatus } from './enums.ts';
import type { Invoice } from './Invoice.ts';

/** Money the factor pays a client: the advance at financing, the reserve when collected. */
export class Payout extends Model<InferAttributes<Payout>, InferCreationAttributes<Payout>> {
  declare id: CreationOptional<string>;
  declare clientId: string;
  declare invoiceId: string;
  /** One of each kind per invoice. */
  declare kind: PayoutKind;
  declare amount: string;
  declare currency: CreationOptional<string>;
  declare iban: string;
  declare status: CreationOptional<PayoutStatus>;
  declare exportBatchId: string | null;
  declare exportedAt: Date | null;
  declare createdBy: string | null;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;

  declare client?: NonAttribute<Client>;
  declare invoice?: NonAttribute<Invoice>;

  static initModel(sequelize: Sequelize) {
    return Payout.init(
      {
        id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
        clientId: DataTypes.UUID,
        invoiceId: DataTypes.UUID,
        kind: DataTypes.TEXT,
        amount: DataTypes.DECIMAL(15, 2),
        currency: DataTypes.CHAR(3),
        iban: DataTypes.TEXT,
        status: DataTypes.TEXT,
        exportBatchId: DataTypes.TEXT,
        exportedAt: DataTypes.DATE,
        createdBy: DataTypes.UUID,
        createdAt: DataTypes.DATE,
        updatedAt: DataTypes.DATE,
      },
      { sequelize, tableName: 'payouts', underscored: true, timestamps: true },
    );
  }
}
