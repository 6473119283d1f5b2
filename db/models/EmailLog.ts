import { DataTypes, type CreationOptional, type NonAttribute, type Sequelize } from 'sequelize';
import { TimestampedModel, tableOptions, withTimestamps } from './base.ts';
import type { Client } from './Client.ts';
import type { EmailCampaign } from './EmailCampaign.ts';
import type { EmailTemplate } from './EmailTemplate.ts';
import type { EmailLogStatus } from './enums.ts';

/** One email to one recipient, written as 'queued' before the send so a crash cannot send twice. */
export class EmailLog extends TimestampedModel<EmailLog> {
  declare templateId: string | null;
  declare campaignId: string | null;
  declare clientId: string | null;
  /** Mail to a debtor: the debtor, and the invoice it is about. */
  declare customerId: string | null;
  declare invoiceId: string | null;
  declare recipient: string;
  declare subject: string;
  declare status: CreationOptional<EmailLogStatus>;
  /** Random, for the open pixel and click links; the database generates it. */
  declare trackingToken: CreationOptional<string>;
  declare messageId: string | null;
  /** The tracked links of the message, in order. */
  declare links: CreationOptional<unknown[]>;
  declare errorMessage: string | null;
  declare attempts: CreationOptional<number>;
  declare sentAt: Date | null;
  declare openedAt: Date | null;
  declare clickedAt: Date | null;

  declare template?: NonAttribute<EmailTemplate | null>;
  declare campaign?: NonAttribute<EmailCampaign | null>;
  declare client?: NonAttribute<Client | null>;

  static initModel(sequelize: Sequelize) {
    return EmailLog.init(
      withTimestamps({
        templateId: DataTypes.UUID,
        campaignId: DataTypes.UUID,
        clientId: DataTypes.UUID,
        customerId: DataTypes.UUID,
        invoiceId: DataTypes.UUID,
        recipient: DataTypes.TEXT,
        subject: DataTypes.TEXT,
        status: DataTypes.TEXT,
        trackingToken: DataTypes.TEXT,
        messageId: DataTypes.TEXT,
        links: DataTypes.JSONB,
        errorMessage: DataTypes.TEXT,
        attempts: DataTypes.INTEGER,
        sentAt: DataTypes.DATE,
        openedAt: DataTypes.DATE,
        clickedAt: DataTypes.DATE,
      }),
      tableOptions(sequelize, 'email_logs'),
    );
  }
}
