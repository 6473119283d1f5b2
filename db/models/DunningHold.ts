import { DataTypes, type CreationOptional, type Sequelize } from 'sequelize';
import { IdModel, tableOptions, withId } from './base.ts';

/** A manager's hold on an invoice's reminders: while it is open (not lifted), the dunning job sends nothing. */
export class DunningHold extends IdModel<DunningHold> {
  declare invoiceId: string;
  declare reason: string;
  declare heldAt: CreationOptional<Date>;
  declare heldBy: string | null;
  declare liftedAt: Date | null;
  declare liftedBy: string | null;
  declare liftNote: string | null;

  static initModel(sequelize: Sequelize) {
    return DunningHold.init(
      withId({
        invoiceId: DataTypes.UUID,
        reason: DataTypes.TEXT,
        heldAt: DataTypes.DATE,
        heldBy: DataTypes.UUID,
        liftedAt: DataTypes.DATE,
        liftedBy: DataTypes.UUID,
        liftNote: DataTypes.TEXT,
      }),
      tableOptions(sequelize, 'dunning_holds', { timestamps: false }),
    );
  }
}
