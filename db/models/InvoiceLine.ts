import { DataTypes, type CreationOptional, type NonAttribute, type Sequelize } from 'sequelize';
import { IdModel, tableOptions, withId } from './base.ts';
import type { VatCategory } from './enums.ts';
import type { Invoice } from './Invoice.ts';

/** A line of an e-invoice (EN 16931 BG-25); part of its invoice, so it has no timestamps of its own. */
export class InvoiceLine extends IdModel<InvoiceLine> {
  declare invoiceId: string;
  /** 1-based, unique within the invoice. */
  declare lineNumber: number;
  declare description: string;
  /** Exact decimal string with 4 places; negative on credit lines. */
  declare quantity: string;
  /** UN/ECE Recommendation 20 unit code; 'H87' is "piece". */
  declare unitCode: CreationOptional<string>;
  declare unitPrice: string;
  declare netAmount: string;
  declare vatCategory: CreationOptional<VatCategory>;
  /** Percent, e.g. '25.00'. */
  declare vatRate: CreationOptional<string>;
  /** Croatian KPD classification of the item. */
  declare kpdCode: string | null;

  declare invoice?: NonAttribute<Invoice>;

  static initModel(sequelize: Sequelize) {
    return InvoiceLine.init(
      withId({
        invoiceId: DataTypes.UUID,
        lineNumber: DataTypes.INTEGER,
        description: DataTypes.TEXT,
        quantity: DataTypes.DECIMAL(15, 4),
        unitCode: DataTypes.TEXT,
        unitPrice: DataTypes.DECIMAL(15, 4),
        netAmount: DataTypes.DECIMAL(15, 2),
        vatCategory: DataTypes.TEXT,
        vatRate: DataTypes.DECIMAL(5, 2),
        kpdCode: DataTypes.TEXT,
      }),
      tableOptions(sequelize, 'invoice_lines', { timestamps: false }),
    );
  }
}
