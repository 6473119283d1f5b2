import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import type { DebtorAnswerKind } from './enums.ts';

/** The debtor's answer on one invoice through its link, with time and address: the one record of "confirmed by the debtor". */
export class DebtorAnswer extends Model<InferAttributes<DebtorAnswer>, InferCreationAttributes<DebtorAnswer>> {
  declare id: CreationOptional<string>;
  declare linkId: string;
  declare invoiceId: string;
  declare answer: DebtorAnswerKind;
  /** With 'disputed': the dispute it opened. */
  declare disputeId: string | null;
  declare answeredAt: CreationOptional<Date>;
  declare ip: string | null;

  static initModel(sequelize: Sequelize) {
    return DebtorAnswer.init(
      {
        id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
        linkId: DataTypes.UUID,
        invoiceId: DataTypes.UUID,
        answer: DataTypes.TEXT,
        disputeId: DataTypes.UUID,
        answeredAt: DataTypes.DATE,
        ip: DataTypes.TEXT,
      },
      { sequelize, tableName: 'debtor_answers', underscored: true, timestamps: false },
    );
  }
}
