import { DataTypes, type CreationOptional, type Sequelize } from 'sequelize';
import { IdModel, tableOptions, withId } from './base.ts';
import type { InvoiceDisputeOutcome, InvoiceDisputeSource } from './enums.ts';

/** A debtor's dispute of an invoice, opened through its link or by staff on its behalf, and how a manager resolved it. */
export class InvoiceDispute extends IdModel<InvoiceDispute> {
  declare invoiceId: string;
  declare reason: string;
  declare source: InvoiceDisputeSource;
  declare openedAt: CreationOptional<Date>;
  declare openedBy: string | null;
  declare openedIp: string | null;
  declare outcome: InvoiceDisputeOutcome | null;
  /** With outcome 'reduced': what the debtor still owes. */
  declare agreedAmount: string | null;
  declare resolutionNote: string | null;
  declare resolvedAt: Date | null;
  declare resolvedBy: string | null;

  static initModel(sequelize: Sequelize) {
    return InvoiceDispute.init(
      withId({
        invoiceId: DataTypes.UUID,
        reason: DataTypes.TEXT,
        source: DataTypes.TEXT,
        openedAt: DataTypes.DATE,
        openedBy: DataTypes.UUID,
        openedIp: DataTypes.TEXT,
        outcome: DataTypes.TEXT,
        agreedAmount: DataTypes.DECIMAL(15, 2),
        resolutionNote: DataTypes.TEXT,
        resolvedAt: DataTypes.DATE,
        resolvedBy: DataTypes.UUID,
      }),
      tableOptions(sequelize, 'invoice_disputes', { timestamps: false }),
    );
  }
}
