import type { NonAttribute } from 'sequelize';
import { partyModel } from './party.ts';
import { defaulted, nullable, oneOf, text } from './columns.ts';
import { CLIENT_STATUSES, ONBOARDING_STATUSES } from './enums.ts';
import type { CreditLimitRequest } from './CreditLimitRequest.ts';
import type { Payout } from './Payout.ts';
import type { Document } from './Document.ts';
import type { Invoice } from './Invoice.ts';
import type { RiskAssessment } from './RiskAssessment.ts';
import type { User } from './User.ts';

const columns = {
  contactPerson: nullable(text),
  status: defaulted(oneOf(CLIENT_STATUSES)),
  onboardingStatus: defaulted(oneOf(ONBOARDING_STATUSES)),
};

/** A company that sells its invoices to the factor (the factor's customer in the agreement). */
export class Client extends partyModel('clients', columns) {
  declare creator?: NonAttribute<User | null>;
  declare invoices?: NonAttribute<Invoice[]>;
  declare documents?: NonAttribute<Document[]>;
  declare riskAssessments?: NonAttribute<RiskAssessment[]>;
  declare creditLimitRequests?: NonAttribute<CreditLimitRequest[]>;
  declare payouts?: NonAttribute<Payout[]>;
}
