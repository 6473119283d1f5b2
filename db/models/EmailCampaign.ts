import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type NonAttribute, type Sequelize } from 'sequelize';
import type { EmailLog } from './EmailLog.ts';
import type { EmailTemplate } from './EmailTemplate.ts';
import type { CampaignRecipients, CampaignStatus } from './enums.ts';

/** One template sent to a set of clients. */
export class EmailCampaign extends Model<InferAttributes<EmailCampaign>, InferCreationAttributes<EmailCampaign>> {
  declare id: CreationOptional<string>;
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
  declare createdBy: string | null;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;

  declare template?: NonAttribute<EmailTemplate>;
  declare logs?: NonAttribute<EmailLog[]>;

  static initModel(sequelize: Sequelize) {
    return EmailCampaign.init(
      {
        id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
        name: DataTypes.TEXT,
        templateId: DataTypes.UUID,
        recipients: DataTypes.TEXT,
        specificClientIds: DataTypes.ARRAY(DataTypes.UUID),
        status: DataTypes.TEXT,
        scheduledAt: DataTypes.DATE,
        startedAt: DataTypes.DATE,
        completedAt: DataTypes.DATE,
        totalRecipients: DataTypes.INTEGER,
        createdBy: DataTypes.UUID,
        createdAt: DataTypes.DATE,
        updatedAt: DataTypes.DATE,
      },
      { sequelize, tableName: 'email_campaigns', underscored: true, timestamps: true },
    );
  }
}
