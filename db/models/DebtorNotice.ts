import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import type { DebtorNoticeOccasion } from './enums.ts';

/** A notice of assignment written for a client–debtor pair (docs/collections.md): its PDF, the agreement version, and how it went out. */
export class DebtorNotice extends Model<InferAttributes<DebtorNotice>, InferCreationAttributes<DebtorNotice>> {
  declare id: CreationOptional<string>;
  declare clientId: string;
  declare customerId: string;
  declare agreementId: string;
  declare documentId: string;
  declare occasion: DebtorNoticeOccasion;
  /** With 'financing': the invoice whose first financing wrote it. */
  declare invoiceId: string | null;
  declare emailLogId: string | null;
  /** Without the debtor's address: the task to deliver it by hand. */
  declare taskId: string | null;
  declare createdBy: string | null;
  declare createdAt: CreationOptional<Date>;

  static initModel(sequelize: Sequelize) {
    return DebtorNotice.init(
      {
        id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
        clientId: DataTypes.UUID,
        customerId: DataTypes.UUID,
        agreementId: DataTypes.UUID,
        documentId: DataTypes.UUID,
        occasion: DataTypes.TEXT,
        invoiceId: DataTypes.UUID,
        emailLogId: DataTypes.UUID,
        taskId: DataTypes.UUID,
        createdBy: DataTypes.UUID,
        createdAt: DataTypes.DATE,
      },
      { sequelize, tableName: 'debtor_notices', underscored: true, timestamps: false },
    );
  }
}
