import { DataTypes, type CreationOptional, type NonAttribute, type Sequelize } from 'sequelize';
import { AuditedModel, tableOptions, withAudit } from './base.ts';
import type { Client } from './Client.ts';
import type { Customer } from './Customer.ts';
import type { Document } from './Document.ts';
import type { InvoiceSource, InvoiceStatus, InvoiceVerificationStatus } from './enums.ts';
import type { InvoiceLine } from './InvoiceLine.ts';
import type { Payment } from './Payment.ts';
import type { Payout } from './Payout.ts';

/** A client's invoice to a customer, offered to the factor. Money fields are exact decimal strings. */
export class Invoice extends AuditedModel<Invoice> {
  declare clientId: string;
  declare customerId: string;
  declare invoiceNumber: string;
  declare status: CreationOptional<InvoiceStatus>;
  declare verificationStatus: CreationOptional<InvoiceVerificationStatus>;
  declare amount: string;
  declare currency: CreationOptional<string>;
  /** 'YYYY-MM-DD' */
  declare issueDate: string;
  /** 'YYYY-MM-DD' */
  declare dueDate: string;
  declare description: string | null;
  /** The advance paid to the client at financing. */
  declare factorAmount: string | null;
  declare factorFee: string | null;
  /** VAT on factorFee (the fee documents' VAT). */
  declare factorFeeVat: string | null;
  /** The agreement's one-off documentation fee when this was its first financing (part of factorFee). */
  declare documentationFee: CreationOptional<string>;
  /** The agreement version the financing used. */
  declare agreementId: string | null;
  /** What the debtor quotes when it pays the factor ('HR00 2026-7-000042'), given at the first financing. */
  declare paymentReference: CreationOptional<string | null>;
  /** The debtor disputes the invoice; the reason is kept while it does. */
  declare disputed: CreationOptional<boolean>;
  declare disputeReason: string | null;
  /** Sum of confirmed collections. */
  declare paidAmount: CreationOptional<string>;
  /** Sum of pending collections, kept by triggers on payments. */
  declare pendingAmount: CreationOptional<string>;
  /** Sum of the credit notes on the invoice, kept by a trigger on credit_notes. */
  declare creditedAmount: CreationOptional<string>;
  declare source: CreationOptional<InvoiceSource>;
  declare ublDocumentId: string | null;
  declare verifiedBy: string | null;
  declare verifiedAt: Date | null;
  declare approvedBy: string | null;
  declare approvedAt: Date | null;
  declare financedBy: string | null;
  declare financedAt: Date | null;
  declare rejectedBy: string | null;
  declare rejectedAt: Date | null;
  declare rejectionReason: string | null;
  declare paidAt: Date | null;
  /** Charged back to the client (docs/lifecycle.md#recourse-and-write-off); NULL by when the daily job did it. */
  declare chargedBackAt: Date | null;
  declare chargedBackBy: string | null;
  declare chargeBackReason: string | null;
  /** Written off (approved write-off request). */
  declare writtenOffAt: Date | null;
  declare writtenOffBy: string | null;
  /** 'YYYY-MM-DD': the business day it left the factor's book, charged back or written off (set by a trigger; docs/collections.md#ageing). */
  declare leftBookOn: CreationOptional<string | null>;

  declare client?: NonAttribute<Client>;
  declare customer?: NonAttribute<Customer>;
  declare ublDocument?: NonAttribute<Document | null>;
  declare lines?: NonAttribute<InvoiceLine[]>;
  declare payments?: NonAttribute<Payment[]>;
  declare payouts?: NonAttribute<Payout[]>;
  declare documents?: NonAttribute<Document[]>;

  static initModel(sequelize: Sequelize) {
    return Invoice.init(
      withAudit({
        clientId: DataTypes.UUID,
        customerId: DataTypes.UUID,
        invoiceNumber: DataTypes.TEXT,
        status: DataTypes.TEXT,
        verificationStatus: DataTypes.TEXT,
        amount: DataTypes.DECIMAL(15, 2),
        currency: DataTypes.CHAR(3),
        issueDate: DataTypes.DATEONLY,
        dueDate: DataTypes.DATEONLY,
        description: DataTypes.TEXT,
        factorAmount: DataTypes.DECIMAL(15, 2),
        factorFee: DataTypes.DECIMAL(15, 2),
        factorFeeVat: DataTypes.DECIMAL(15, 2),
        documentationFee: DataTypes.DECIMAL(15, 2),
        agreementId: DataTypes.UUID,
        paymentReference: DataTypes.TEXT,
        disputed: DataTypes.BOOLEAN,
        disputeReason: DataTypes.TEXT,
        paidAmount: DataTypes.DECIMAL(15, 2),
        pendingAmount: DataTypes.DECIMAL(15, 2),
        creditedAmount: DataTypes.DECIMAL(15, 2),
        source: DataTypes.TEXT,
        ublDocumentId: DataTypes.UUID,
        verifiedBy: DataTypes.UUID,
        verifiedAt: DataTypes.DATE,
        approvedBy: DataTypes.UUID,
        approvedAt: DataTypes.DATE,
        financedBy: DataTypes.UUID,
        financedAt: DataTypes.DATE,
        rejectedBy: DataTypes.UUID,
        rejectedAt: DataTypes.DATE,
        rejectionReason: DataTypes.TEXT,
        paidAt: DataTypes.DATE,
        chargedBackAt: DataTypes.DATE,
        chargedBackBy: DataTypes.UUID,
        chargeBackReason: DataTypes.TEXT,
        writtenOffAt: DataTypes.DATE,
        writtenOffBy: DataTypes.UUID,
        leftBookOn: DataTypes.DATEONLY,
      }),
      tableOptions(sequelize, 'invoices'),
    );
  }
}
