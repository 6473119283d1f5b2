import { DataTypes, Model, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';

/** A stored document sent with one email, in the order the message lists them. */
export class EmailAttachment extends Model<InferAttributes<EmailAttachment>, InferCreationAttributes<EmailAttachment>> {
  declare emailLogId: string;
  declare position: number;
  declare documentId: string;

  static initModel(sequelize: Sequelize) {
    return EmailAttachment.init(
      {
        emailLogId: { type: DataTypes.UUID, primaryKey: true },
        position: { type: DataTypes.INTEGER, primaryKey: true },
        documentId: DataTypes.UUID,
      },
      { sequelize, tableName: 'email_attachments', underscored: true, timestamps: false },
    );
  }
}
