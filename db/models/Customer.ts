import type { NonAttribute } from 'sequelize';
import { partyModel } from './party.ts';
import { boolean, defaulted, instant, nullable, text } from './columns.ts';
import type { Document } from './Document.ts';
import type { Invoice } from './Invoice.ts';
import type { RiskAssessment } from './RiskAssessment.ts';
import type { User } from './User.ts';

const columns = {
  accountBlocked: defaulted(boolean),
  blockageReason: nullable(text),
  lastFinaCheck: nullable(instant),
};

/** The debtor: the company that owes a client's invoice and pays it to the factor. */
export class Customer extends partyModel('customers', columns) {
  declare creator?: NonAttribute<User | null>;
  declare invoices?: NonAttribute<Invoice[]>;
  declare documents?: NonAttribute<Document[]>;
  declare riskAssessments?: NonAttribute<RiskAssessment[]>;
}
