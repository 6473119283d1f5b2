import { DataTypes, type CreationOptional, type NonAttribute, type Sequelize } from 'sequelize';
import { AuditedModel, tableOptions, withAudit } from './base.ts';
import type { EmailCampaign } from './EmailCampaign.ts';
import type { EmailTrigger } from './enums.ts';

/** Staff-editable email text (handlebars), rendered inside the MJML layout. */
export class EmailTemplate extends AuditedModel<EmailTemplate> {
  declare name: string;
  declare trigger: CreationOptional<EmailTrigger>;
  declare subject: string;
  declare body: string;
  declare isActive: CreationOptional<boolean>;
  declare usageCount: CreationOptional<number>;

  declare campaigns?: NonAttribute<EmailCampaign[]>;

  static initModel(sequelize: Sequelize) {
    return EmailTemplate.init(
      withAudit({
        name: DataTypes.TEXT,
        trigger: DataTypes.TEXT,
        subject: DataTypes.TEXT,
        body: DataTypes.TEXT,
        isActive: DataTypes.BOOLEAN,
        usageCount: DataTypes.INTEGER,
      }),
      tableOptions(sequelize, 'email_templates'),
    );
  }
}
