import { DataTypes, type CreationOptional, type Sequelize } from 'sequelize';
import { IdModel, tableOptions, withId } from './base.ts';
import type { DebtorNoticeOccasion } from './enums.ts';

/** A notice of assignment written for a client–debtor pair (docs/collections.md): its PDF, the agreement version, and how it went out. */
export class DebtorNotice extends IdModel<DebtorNotice> {
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
      withId({
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
      }),
      tableOptions(sequelize, 'debtor_notices', { timestamps: false }),
    );
  }
}
