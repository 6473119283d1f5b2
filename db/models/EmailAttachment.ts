import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';

/** A stored document sent with one email, in the order the message lists them. */
export class EmailAttachment extends Model<InferAttributes<EmailAttachment>, InferCreationAttributes<EmailAttachment>> {
  declare id: CreationOptional<string>;
  declare emailLogId: string;
  declare position: number;
  declare documentId: string;

  static initModel(sequelize: Sequelize) {
    return EmailAttachment.init(
      {
        id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
        emailLogId: DataTypes.UUID,
        position: DataTypes.INTEGER,
        documentId: DataTypes.UUID,
      },
      { sequelize, tableName: 'email_attachments', underscored: true, timestamps: false },
    );
  }
}
