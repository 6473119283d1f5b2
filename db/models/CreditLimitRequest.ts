import { DataTypes, type CreationOptional, type NonAttribute, type Sequelize } from 'sequelize';
import { TimestampedModel, tableOptions, withTimestamps } from './base.ts';
import type { Client } from './Client.ts';
import type { CreditLimitStatus } from './enums.ts';
import type { User } from './User.ts';

/** A request to set a client's or a debtor's (customer's) credit limit; decided by someone other than the requester (four eyes). */
export class CreditLimitRequest extends TimestampedModel<CreditLimitRequest> {
  /** Exactly one of clientId and customerId. */
  declare clientId: string | null;
  declare customerId: string | null;
  declare previousLimit: string | null;
  declare requestedLimit: string;
  declare approvedLimit: string | null;
  declare reason: string;
  /** NULL when the applicant asked for it in the registration wizard. */
  declare requestedBy: string | null;
  declare requestedAt: CreationOptional<Date>;
  /** 'YYYY-MM-DD' */
  declare validUntil: string | null;
  declare status: CreationOptional<CreditLimitStatus>;
  declare decidedBy: string | null;
  declare decidedAt: Date | null;
  declare rejectionReason: string | null;

  declare client?: NonAttribute<Client>;
  declare requester?: NonAttribute<User | null>;
  declare decider?: NonAttribute<User | null>;

  static initModel(sequelize: Sequelize) {
    return CreditLimitRequest.init(
      withTimestamps({
        clientId: DataTypes.UUID,
        customerId: DataTypes.UUID,
        previousLimit: DataTypes.DECIMAL(15, 2),
        requestedLimit: DataTypes.DECIMAL(15, 2),
        approvedLimit: DataTypes.DECIMAL(15, 2),
        reason: DataTypes.TEXT,
        requestedBy: DataTypes.UUID,
        requestedAt: DataTypes.DATE,
        validUntil: DataTypes.DATEONLY,
        status: DataTypes.TEXT,
        decidedBy: DataTypes.UUID,
        decidedAt: DataTypes.DATE,
        rejectionReason: DataTypes.TEXT,
      }),
      tableOptions(sequelize, 'credit_limit_requests'),
    );
  }
}
