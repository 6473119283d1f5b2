import { DataTypes, type CreationOptional, type Sequelize } from 'sequelize';
import { IdModel, tableOptions, withId } from './base.ts';

/** The debtor's personal link to its page (docs/collections.md): only the token's SHA-256 is kept; it expires, is spent by one submit, or is revoked. */
export class DebtorLink extends IdModel<DebtorLink> {
  declare clientId: string;
  declare customerId: string;
  declare noticeId: string;
  declare tokenHash: string;
  declare expiresAt: Date;
  declare emailLogId: string | null;
  /** The link this one replaced (a resend). */
  declare replacesId: string | null;
  declare createdBy: string | null;
  declare createdAt: CreationOptional<Date>;
  declare revokedAt: Date | null;
  declare revokedBy: string | null;
  declare spentAt: Date | null;
  declare submittedIp: string | null;
  declare acknowledgedAt: Date | null;

  static initModel(sequelize: Sequelize) {
    return DebtorLink.init(
      withId({
        clientId: DataTypes.UUID,
        customerId: DataTypes.UUID,
        noticeId: DataTypes.UUID,
        tokenHash: DataTypes.TEXT,
        expiresAt: DataTypes.DATE,
        emailLogId: DataTypes.UUID,
        replacesId: DataTypes.UUID,
        createdBy: DataTypes.UUID,
        createdAt: DataTypes.DATE,
        revokedAt: DataTypes.DATE,
        revokedBy: DataTypes.UUID,
        spentAt: DataTypes.DATE,
        submittedIp: DataTypes.TEXT,
        acknowledgedAt: DataTypes.DATE,
      }),
      tableOptions(sequelize, 'debtor_links', { timestamps: false }),
    );
  }
}
