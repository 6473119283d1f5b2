import { DataTypes, type CreationOptional, type NonAttribute, type Sequelize } from 'sequelize';
import { AuditedModel, tableOptions, withAudit } from './base.ts';
import type { EmailLog } from './EmailLog.ts';
import type { EmailTemplate } from './EmailTemplate.ts';
import type { CampaignRecipients, CampaignStatus } from './enums.ts';

/** One template sent to a set of clients. */
export class EmailCampaign extends AuditedModel<EmailCampaign> {
  declare name: string;
  declare templateId: string;
  declare recipients: CreationOptional<CampaignRecipients>;
  /** Used when recipients is 'specific_clients'. */
  declare specificClientIds: CreationOptional<string[]>;
  declare status: CreationOptional<CampaignStatus>;
  declare scheduledAt: Date | null;
  declare startedAt: Date | null;
  declare completedAt: Date | null;
  declare totalRecipients: number | null;

  declare template?: NonAttribute<EmailTemplate>;
  declare logs?: NonAttribute<EmailLog[]>;

  static initModel(sequelize: Sequelize) {
    return EmailCampaign.init(
      withAudit({
        name: DataTypes.TEXT,
        templateId: DataTypes.UUID,
        recipients: DataTypes.TEXT,
        specificClientIds: DataTypes.ARRAY(DataTypes.UUID),
        status: DataTypes.TEXT,
        scheduledAt: DataTypes.DATE,
        startedAt: DataTypes.DATE,
        completedAt: DataTypes.DATE,
        totalRecipients: DataTypes.INTEGER,
      }),
      tableOptions(sequelize, 'email_campaigns'),
    );
  }
}
