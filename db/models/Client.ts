import { DataTypes, type CreationOptional, type NonAttribute, type Sequelize } from 'sequelize';
import { tableOptions } from './base.ts';
import { PartyModel, withPartyColumns } from './party.ts';
import type { CreditLimitRequest } from './CreditLimitRequest.ts';
import type { ClientStatus, OnboardingStatus } from './enums.ts';
import type { Payout } from './Payout.ts';

/** A company that sells its invoices to the factor (the factor's customer in the agreement). */
export class Client extends PartyModel<Client> {
  declare contactPerson: string | null;
  declare status: CreationOptional<ClientStatus>;
  declare onboardingStatus: CreationOptional<OnboardingStatus>;

  declare creditLimitRequests?: NonAttribute<CreditLimitRequest[]>;
  declare payouts?: NonAttribute<Payout[]>;

  static initModel(sequelize: Sequelize) {
    return Client.init(
      withPartyColumns({
        contactPerson: DataTypes.TEXT,
        status: DataTypes.TEXT,
        onboardingStatus: DataTypes.TEXT,
      }),
      tableOptions(sequelize, 'clients'),
    );
  }
}
