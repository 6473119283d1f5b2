import { DataTypes, Model, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { tableOptions } from './base.ts';

/**
 * How much the advances outstanding on a client's invoices changed over one
 * calendar month of booking (client_advance_changes): kept by triggers on
 * client_ledger, never written by the application; the dashboard's month-start
 * comparison reads it (db/migrations/2026.11.28T03.00.00.client-advance-changes.ts).
 */
export class ClientAdvanceChange extends Model<InferAttributes<ClientAdvanceChange>, InferCreationAttributes<ClientAdvanceChange>> {
  declare clientId: string;
  /** 'YYYY-MM-DD', the first day of the month. */
  declare month: string;
  declare change: string;

  static initModel(sequelize: Sequelize) {
    return ClientAdvanceChange.init(
      {
        clientId: { type: DataTypes.UUID, primaryKey: true },
        month: { type: DataTypes.DATEONLY, primaryKey: true },
        change: DataTypes.DECIMAL(15, 2),
      },
      tableOptions(sequelize, 'client_advance_changes', { timestamps: false }),
    );
  }
}
