import { DataTypes, type CreationOptional, type Sequelize } from 'sequelize';
import { IdModel, tableOptions, withId } from './base.ts';
import type { DunningNoticeStatus, DunningSkipReason } from './enums.ts';

/** One reminder level an invoice reached: sent to the debtor with its payment slip, or skipped with the reason. */
export class DunningNotice extends IdModel<DunningNotice> {
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
      withId({
        invoiceId: DataTypes.UUID,
        level: DataTypes.INTEGER,
        day: DataTypes.DATEONLY,
        status: DataTypes.TEXT,
        skipReason: DataTypes.TEXT,
        openAmount: DataTypes.DECIMAL(15, 2),
        emailLogId: DataTypes.UUID,
        documentId: DataTypes.UUID,
        createdAt: DataTypes.DATE,
      }),
      tableOptions(sequelize, 'dunning_notices', { updatedAt: false }),
    );
  }
}
