import { DataTypes, Model, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { tableOptions } from './base.ts';

/**
 * How the factor's open amount on one invoice changed on one day (docs/collections.md#ageing):
 * written only by the database's triggers (migration 2026.11.28T01.00.00.open-book), read by the ageing report.
 */
export class OpenBookChange extends Model<InferAttributes<OpenBookChange>, InferCreationAttributes<OpenBookChange>> {
  declare invoiceId: string;
  /** 'YYYY-MM-DD': the Croatian business day of the change. */
  declare day: string;
  declare clientId: string;
  declare customerId: string;
  /** 'YYYY-MM-DD': the invoice's due date. */
  declare dueDate: string;
  /** The change of the open amount, in cents (INT8: a number). */
  declare openCents: number;
  /** +1 the invoice became open that day, −1 it stopped being open, 0 neither. */
  declare invoices: number;

  static initModel(sequelize: Sequelize) {
    return OpenBookChange.init(
      {
        invoiceId: { type: DataTypes.UUID, primaryKey: true },
        day: { type: DataTypes.DATEONLY, primaryKey: true },
        clientId: DataTypes.UUID,
        customerId: DataTypes.UUID,
        dueDate: DataTypes.DATEONLY,
        openCents: DataTypes.BIGINT,
        invoices: DataTypes.INTEGER,
      },
      tableOptions(sequelize, 'open_book_changes', { timestamps: false }),
    );
  }
}
