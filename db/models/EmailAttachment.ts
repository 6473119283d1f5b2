import { DataTypes, type Sequelize } from 'sequelize';
import { IdModel, tableOptions, withId } from './base.ts';

/** A stored document sent with one email, in the order the message lists them. */
export class EmailAttachment extends IdModel<EmailAttachment> {
  declare emailLogId: string;
  declare position: number;
  declare documentId: string;

  static initModel(sequelize: Sequelize) {
    return EmailAttachment.init(
      withId({
        emailLogId: DataTypes.UUID,
        position: DataTypes.INTEGER,
        documentId: DataTypes.UUID,
      }),
      tableOptions(sequelize, 'email_attachments', { timestamps: false }),
    );
  }
}
