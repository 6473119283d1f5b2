import type { NonAttribute } from 'sequelize';
import { withId } from './base.ts';
import { defaulted, integer, money, nullable, numeric, oneOf, tableModel, text, uuid } from './columns.ts';
import { VAT_CATEGORIES } from './enums.ts';
import type { Invoice } from './Invoice.ts';

const columns = withId({
  invoiceId: uuid,
  /** 1-based, unique within the invoice. */
  lineNumber: integer,
  description: text,
  /** Exact decimal string with 4 places; negative on credit lines. */
  quantity: numeric(15, 4),
  /** UN/ECE Recommendation 20 unit code; 'H87' is "piece". */
  unitCode: defaulted(text),
  unitPrice: numeric(15, 4),
  netAmount: money,
  vatCategory: defaulted(oneOf(VAT_CATEGORIES)),
  /** Percent, e.g. '25.00'. */
  vatRate: defaulted(numeric(5, 2)),
  /** Croatian KPD classification of the item. */
  kpdCode: nullable(text),
});

/** A line of an e-invoice (EN 16931 BG-25); part of its invoice, so it has no timestamps of its own. */
export class InvoiceLine extends tableModel('invoice_lines', columns, { timestamps: false }) {
  declare invoice?: NonAttribute<Invoice>;
}
