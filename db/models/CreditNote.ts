import { DataTypes, type CreationOptional, type Sequelize } from 'sequelize';
import { IdModel, tableOptions, withId } from './base.ts';
import type { CreditNoteSource } from './enums.ts';

/** A credit note on a purchased invoice: it lowers what the debtor owes (app/dilution/credit-notes.server.ts). Never changed or deleted. */
export class CreditNote extends IdModel<CreditNote> {
  declare invoiceId: string;
  /** The credit note's own number, as the client issued it. */
  declare number: string;
  /** 'YYYY-MM-DD' */
  declare issueDate: string;
  declare amount: string;
  declare reason: string;
  declare source: CreditNoteSource;
  /** With source 'dispute': the dispute whose resolution wrote it. */
  declare disputeId: string | null;
  /** With source 'ubl': the stored CreditNote XML. */
  declare documentId: string | null;
  /** 'YYYY-MM-DD': the business day it was entered. */
  declare bookedOn: string;
  /** The excess advance charged back to the client with it. */
  declare chargebackAmount: CreationOptional<string>;
  declare createdBy: string | null;
  declare createdAt: CreationOptional<Date>;

  static initModel(sequelize: Sequelize) {
    return CreditNote.init(
      withId({
        invoiceId: DataTypes.UUID,
        number: DataTypes.TEXT,
        issueDate: DataTypes.DATEONLY,
        amount: DataTypes.DECIMAL(15, 2),
        reason: DataTypes.TEXT,
        source: DataTypes.TEXT,
        disputeId: DataTypes.UUID,
        documentId: DataTypes.UUID,
        bookedOn: DataTypes.DATEONLY,
        chargebackAmount: DataTypes.DECIMAL(15, 2),
        createdBy: DataTypes.UUID,
        createdAt: DataTypes.DATE,
      }),
      tableOptions(sequelize, 'credit_notes', { updatedAt: false }),
    );
  }
}
