import { DataTypes, type CreationOptional, type NonAttribute, type Sequelize } from 'sequelize';
import { TimestampedModel, tableOptions, withTimestamps } from './base.ts';
import type { IncomingEInvoiceStatus } from './enums.ts';
import type { Invoice } from './Invoice.ts';

/** A document received from the e-invoicing intermediary: imported as an invoice, or kept with the reason it failed. */
export class IncomingEInvoice extends TimestampedModel<IncomingEInvoice> {
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

  declare invoice?: NonAttribute<Invoice>;

  static initModel(sequelize: Sequelize) {
    return IncomingEInvoice.init(
      withTimestamps({
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
      }),
      tableOptions(sequelize, 'incoming_einvoices'),
    );
  }
}
