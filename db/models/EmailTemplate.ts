import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type NonAttribute, type Sequelize } from 'sequelize';
import type { EmailCampaign } from './EmailCampaign.ts';
import type { EmailTrigger } from './enums.ts';

/** Staff-editable email text (handlebars), rendered inside the MJML layout. */
export class EmailTemplate extends Model<InferAttributes<EmailTemplate>, InferCreationAttributes<EmailTemplate>> {
  declare id: CreationOptional<string>;
  declare name: string;
  declare trigger: CreationOptional<EmailTrigger>;
  declare subject: string;
  declare body: string;
  declare isActive: CreationOptional<boolean>;
  declare usageCount: CreationOptional<number>;
  declare createdBy: string | null;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;

  declare campaigns?: NonAttribute<EmailCampaign[]>;

  static initModel(sequelize: Sequelize) {
    return EmailTemplate.init(
      {
        id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
        name: DataTypes.TEXT,
        trigger: DataTypes.TEXT,
        subject: DataTypes.TEXT,
        body: DataTypes.TEXT,
        isActive: DataTypes.BOOLEAN,
        usageCount: DataTypes.INTEGER,
        createdBy: DataTypes.UUID,
        createdAt: DataTypes.DATE,
        updatedAt: DataTypes.DATE,
      },
      { sequelize, tableName: 'email_templates', underscored: true, timestamps: true },
    );
  }
}
