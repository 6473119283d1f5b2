import { DataTypes, type NonAttribute, type Sequelize } from 'sequelize';
import { RequestModel, tableOptions, withRequestColumns } from './base.ts';
import type { Client } from './Client.ts';
import type { CreditLimitStatus } from './enums.ts';
import type { User } from './User.ts';

/**
 * A request to set a client's or a debtor's (customer's) credit limit; decided by someone other than the requester (four eyes).
 * requestedBy is NULL when the applicant asked for it in the registration wizard.
 */
export class CreditLimitRequest extends RequestModel<CreditLimitRequest, CreditLimitStatus> {
  /** Exactly one of clientId and customerId. */
  declare clientId: string | null;
  declare customerId: string | null;
  declare previousLimit: string | null;
  declare requestedLimit: string;
  declare approvedLimit: string | null;
  /** 'YYYY-MM-DD' */
  declare validUntil: string | null;

  declare client?: NonAttribute<Client>;
  declare requester?: NonAttribute<User | null>;
  declare decider?: NonAttribute<User | null>;

  static initModel(sequelize: Sequelize) {
    return CreditLimitRequest.init(
      withRequestColumns({
        clientId: DataTypes.UUID,
        customerId: DataTypes.UUID,
        previousLimit: DataTypes.DECIMAL(15, 2),
        requestedLimit: DataTypes.DECIMAL(15, 2),
        approvedLimit: DataTypes.DECIMAL(15, 2),
        validUntil: DataTypes.DATEONLY,
      }),
      tableOptions(sequelize, 'credit_limit_requests'),
    );
  }
}
