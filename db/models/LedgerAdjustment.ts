import { DataTypes, type Sequelize } from 'sequelize';
import { RequestModel, tableOptions, withRequestColumns } from './base.ts';
import type { LedgerAdjustmentStatus } from './enums.ts';

/** A manual adjustment of a client's account asked by a manager; above the book's four-eyes amount another manager decides. */
export class LedgerAdjustment extends RequestModel<LedgerAdjustment, LedgerAdjustmentStatus> {
  declare clientId: string;
  declare invoiceId: string | null;
  declare amount: string;

  static initModel(sequelize: Sequelize) {
    return LedgerAdjustment.init(
      withRequestColumns({
        clientId: DataTypes.UUID,
        invoiceId: DataTypes.UUID,
        amount: DataTypes.DECIMAL(15, 2),
      }),
      tableOptions(sequelize, 'ledger_adjustments'),
    );
  }
}
