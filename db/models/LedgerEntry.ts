import { DataTypes, type CreationOptional, type Sequelize } from 'sequelize';
import { IdModel, tableOptions, withId } from './base.ts';
import type { LedgerKind } from './enums.ts';

/**
 * One movement on a client's account (client_ledger, append-only; written only
 * by postLedgerEntries in app/ledger/ledger.server.ts). Signed from the
 * factor's side: positive is owed by the client, negative owed to it.
 */
export class LedgerEntry extends IdModel<LedgerEntry> {
  declare entryNumber: CreationOptional<number>;
  declare clientId: string;
  /** 'YYYY-MM-DD' */
  declare bookedOn: string;
  declare kind: LedgerKind;
  declare amount: string;
  declare currency: CreationOptional<string>;
  declare invoiceId: string | null;
  declare paymentId: string | null;
  declare payoutId: string | null;
  declare einvoiceId: string | null;
  declare adjustmentId: string | null;
  declare description: string;
  declare createdBy: string | null;
  declare createdAt: CreationOptional<Date>;

  static initModel(sequelize: Sequelize) {
    return LedgerEntry.init(
      withId({
        entryNumber: DataTypes.BIGINT,
        clientId: DataTypes.UUID,
        bookedOn: DataTypes.DATEONLY,
        kind: DataTypes.TEXT,
        amount: DataTypes.DECIMAL(15, 2),
        currency: DataTypes.CHAR(3),
        invoiceId: DataTypes.UUID,
        paymentId: DataTypes.UUID,
        payoutId: DataTypes.UUID,
        einvoiceId: DataTypes.UUID,
        adjustmentId: DataTypes.UUID,
        description: DataTypes.TEXT,
        createdBy: DataTypes.UUID,
        createdAt: DataTypes.DATE,
      }),
      tableOptions(sequelize, 'client_ledger', { updatedAt: false }),
    );
  }
}
