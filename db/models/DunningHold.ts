import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';

/** A manager's hold on an invoice's reminders: while it is open (not lifted), the dunning job sends nothing. */
export class DunningHold extends Model<InferAttributes<DunningHold>, InferCreationAttributes<DunningHold>> {
  declare id: CreationOptional<string>;
  declare invoiceId: string;
  declare reason: string;
  declare heldAt: CreationOptional<Date>;
  declare heldBy: string | null;
  declare liftedAt: Date | null;
  declare liftedBy: string | null;
  declare liftNote: string | null;

  static initModel(sequelize: Sequelize) {
    return DunningHold.init(
      {
        id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
        invoiceId: DataTypes.UUID,
        reason: DataTypes.TEXT,
        heldAt: DataTypes.DATE,
        heldBy: DataTypes.UUID,
        liftedAt: DataTypes.DATE,
        liftedBy: DataTypes.UUID,
        liftNote: DataTypes.TEXT,
      },
      { sequelize, tableName: 'dunning_holds', underscored: true, timestamps: false },
    );
  }
}
