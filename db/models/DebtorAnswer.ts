import { DataTypes, type CreationOptional, type Sequelize } from 'sequelize';
import { IdModel, tableOptions, withId } from './base.ts';
import type { DebtorAnswerKind } from './enums.ts';

/** The debtor's answer on one invoice through its link, with time and address: the one record of "confirmed by the debtor". */
export class DebtorAnswer extends IdModel<DebtorAnswer> {
  declare linkId: string;
  declare invoiceId: string;
  declare answer: DebtorAnswerKind;
  /** With 'disputed': the dispute it opened. */
  declare disputeId: string | null;
  declare answeredAt: CreationOptional<Date>;
  declare ip: string | null;

  static initModel(sequelize: Sequelize) {
    return DebtorAnswer.init(
      withId({
        linkId: DataTypes.UUID,
        invoiceId: DataTypes.UUID,
        answer: DataTypes.TEXT,
        disputeId: DataTypes.UUID,
        answeredAt: DataTypes.DATE,
        ip: DataTypes.TEXT,
      }),
      tableOptions(sequelize, 'debtor_answers', { timestamps: false }),
    );
  }
}
