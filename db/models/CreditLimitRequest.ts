import type { NonAttribute } from 'sequelize';
import { withRequestColumns } from './base.ts';
import { day, money, nullable, tableModel, uuid } from './columns.ts';
import { CREDIT_LIMIT_STATUSES } from './enums.ts';
import type { Client } from './Client.ts';
import type { User } from './User.ts';

const columns = withRequestColumns(CREDIT_LIMIT_STATUSES, {
  /** Exactly one of clientId and customerId. */
  clientId: nullable(uuid),
  customerId: nullable(uuid),
  previousLimit: nullable(money),
  requestedLimit: money,
  approvedLimit: nullable(money),
  validUntil: nullable(day),
});

/**
 * A request to set a client's or a debtor's (customer's) credit limit; decided by someone other than the requester (four eyes).
 * requestedBy is NULL when the applicant asked for it in the registration wizard.
 */
export class CreditLimitRequest extends tableModel('credit_limit_requests', columns) {
  declare client?: NonAttribute<Client>;
  declare requester?: NonAttribute<User | null>;
  declare decider?: NonAttribute<User | null>;
}
