import { DataTypes, type CreationOptional, type Sequelize } from 'sequelize';
import { tableOptions } from './base.ts';
import { PartyModel, withPartyColumns } from './party.ts';

/** The debtor: the company that owes a client's invoice and pays it to the factor. */
export class Customer extends PartyModel<Customer> {
  declare accountBlocked: CreationOptional<boolean>;
  declare blockageReason: string | null;
  declare lastFinaCheck: Date | null;

  static initModel(sequelize: Sequelize) {
    return Customer.init(
      withPartyColumns({
        accountBlocked: DataTypes.BOOLEAN,
        blockageReason: DataTypes.TEXT,
        lastFinaCheck: DataTypes.DATE,
      }),
      tableOptions(sequelize, 'customers'),
    );
  }
}
