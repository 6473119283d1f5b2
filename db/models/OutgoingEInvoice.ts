import { DataTypes, type CreationOptional, type NonAttribute, type Sequelize } from 'sequelize';
import { AuditedModel, tableOptions, withAudit } from './base.ts';
import type { Client } from './Client.ts';
import type { OutgoingEInvoicePurpose, OutgoingEInvoiceStatus, OutgoingEInvoiceTypeCode } from './enums.ts';
import type { Invoice } from './Invoice.ts';

/**
 * The factor's fee e-invoice to its client for one financed invoice (UBL 2.1,
 * HR CIUS), and its sending through the intermediary. Issued only by
 * app/einvoices/outgoing.server.ts, which draws the gapless number.
 */
export class OutgoingEInvoice extends AuditedModel<OutgoingEInvoice> {
  /** FF-YYYY-NNNNNN */
  declare number: string;
  declare year: number;
  declare sequence: number;
  declare invoiceId: string;
  declare clientId: string;
  declare issuedAt: Date;
  /** 'YYYY-MM-DD' in Croatia. */
  declare issueDate: string;
  declare dueDate: string;
  declare currency: CreationOptional<string>;
  declare netAmount: string;
  declare vatRate: string;
  declare vatAmount: string;
  declare grossAmount: string;
  /** 'HR00 2026-000001' */
  declare paymentReference: string;
  declare ublXml: string;
  declare ublSha256: string;
  declare status: CreationOptional<OutgoingEInvoiceStatus>;
  declare documentId: string | null;
  declare sentAt: Date | null;
  declare error: string | null;
  /** The rule ids the document broke when checked before sending (then status failed). */
  declare ruleFailures: string[] | null;
  declare attempts: CreationOptional<number>;
  /** Why the document was written: the fee at financing, or at settlement a completing invoice or a credit note (type 381). */
  declare purpose: CreationOptional<OutgoingEInvoicePurpose>;
  declare typeCode: CreationOptional<OutgoingEInvoiceTypeCode>;
  /** The fee invoice a completion or credit note refers to. */
  declare precedingId: string | null;

  declare invoice?: NonAttribute<Invoice>;
  declare client?: NonAttribute<Client>;

  static initModel(sequelize: Sequelize) {
    return OutgoingEInvoice.init(
      withAudit({
        number: DataTypes.TEXT,
        year: DataTypes.INTEGER,
        sequence: DataTypes.INTEGER,
        invoiceId: DataTypes.UUID,
        clientId: DataTypes.UUID,
        issuedAt: DataTypes.DATE,
        issueDate: DataTypes.DATEONLY,
        dueDate: DataTypes.DATEONLY,
        currency: DataTypes.CHAR(3),
        netAmount: DataTypes.DECIMAL(15, 2),
        vatRate: DataTypes.DECIMAL(5, 2),
        vatAmount: DataTypes.DECIMAL(15, 2),
        grossAmount: DataTypes.DECIMAL(15, 2),
        paymentReference: DataTypes.TEXT,
        ublXml: DataTypes.TEXT,
        ublSha256: DataTypes.TEXT,
        status: DataTypes.TEXT,
        documentId: DataTypes.TEXT,
        sentAt: DataTypes.DATE,
        error: DataTypes.TEXT,
        ruleFailures: DataTypes.ARRAY(DataTypes.TEXT),
        attempts: DataTypes.INTEGER,
        purpose: DataTypes.TEXT,
        typeCode: DataTypes.TEXT,
        precedingId: DataTypes.UUID,
      }),
      tableOptions(sequelize, 'outgoing_einvoices'),
    );
  }
}
