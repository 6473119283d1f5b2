import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import type { DunningNoticeStatus, DunningSkipReason } from './enums.ts';

/** One reminder level an invoice reached: sent to the debtor with its payment slip, or skipped with the reason. */
export class DunningNotice extends Model<InferAttributes<DunningNotice>, InferCreationAttributes<DunningNotice>> {
  declare id: CreationOptional<string>;
  declare invoiceId: string;
  /** 1 … 4 (docs/collections.md#dunning). */
  declare level: number;
  /** The business day the daily job handled it. */
  declare day: string;
  declare status: DunningNoticeStatus;
  declare skipReason: DunningSkipReason | null;
  /** What the debtor still owed that day: the slip's amount. */
  declare openAmount: string;
  declare emailLogId: string | null;
  /** The payment slip PDF (documents), attached to the mail. */
  declare documentId: string | null;
  declare createdAt: CreationOptional<Date>;

  static initModel(sequelize: Sequelize) {
    return DunningNotice.init(
      {
        id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
        invoiceId: DataTypes.UUID,
        level: DataTypes.INTEGER,
        day: DataTypes.DATEONLY,
        status: DataTypes.TEXT,
        skipReason: DataTypes.TEXT,
        openAmount: DataTypes.DECIMAL(15, 2),
        emailLogId: DataTypes.UUID,
        documentId: DataTypes.UUID,
        createdAt: DataTypes.DATE,
      },
      { sequelize, tableName: 'dunning_notices', underscored: true, timestamps: true, updatedAt: false },
    );
  }
}
