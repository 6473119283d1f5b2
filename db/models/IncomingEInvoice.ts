import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type NonAttribute, type Sequelize } from 'sequelize';
import type { IncomingEInvoiceStatus } from './enums.ts';
import type { Invoice } from './Invoice.ts';

/** A document received from the e-invoicing intermediary: imported as an invoice, or kept with the reason it failed. */
export class IncomingEInvoice extends Model<InferAttributes<IncomingEInvoice>, InferCreationAttributes<IncomingEInvoice>> {
  declare id: CreationOptional<string>;
  /** The intermediary's document id (unique: a document is recorded once). */
  declare documentId: string;
  declare receivedAt: Date;
  declare xml: string;
  declare xmlSha256: string;
  declare status: IncomingEInvoiceStatus;
  declare invoiceNumber: string | null;
  declare sellerOib: string | null;
  declare invoiceId: string | null;
  declare error: string | null;
  declare attempts: CreationOptional<number>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;

  declare invoice?: NonAttribute<Invoice>;

  static initModel(sequelize: Sequelize) {
    return IncomingEInvoice.init(
      {
        id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
        documentId: DataTypes.TEXT,
        receivedAt: DataTypes.DATE,
        xml: DataTypes.TEXT,
        xmlSha256: DataTypes.TEXT,
        status: DataTypes.TEXT,
        invoiceNumber: DataTypes.TEXT,
        sellerOib: DataTypes.TEXT,
        invoiceId: DataTypes.UUID,
        error: DataTypes.TEXT,
        attempts: DataTypes.INTEGER,
        createdAt: DataTypes.DATE,
        updatedAt: DataTypes.DATE,
      },
      { sequelize, tableName: 'incoming_einvoices', underscored: true, timestamps: true },
    );
  }
}
