import type { NonAttribute } from 'sequelize';
import { withAudit } from './base.ts';
import { boolean, day, defaulted, integer, money, nullable, numeric, oneOf, tableModel, text, uuid } from './columns.ts';
import { AGREEMENT_FEE_MODELS, AGREEMENT_SIGNATURE_STATUSES } from './enums.ts';
import type { Client } from './Client.ts';

const columns = withAudit({
  clientId: uuid,
  number: text,
  version: integer,
  /** 'YYYY-MM-DD' days */
  effectiveFrom: day,
  validFrom: day,
  validUntil: nullable(day),
  advanceRate: numeric(5, 2),
  feeModel: oneOf(AGREEMENT_FEE_MODELS),
  feeRate: numeric(7, 4),
  minimumFee: defaulted(money),
  adminFee: defaulted(money),
  documentationFee: defaulted(money),
  recourse: defaulted(boolean),
  recourseDays: nullable(integer),
  maxTenorDays: integer,
  disclosed: defaulted(boolean),
  /** Verification waits for the debtor's confirmation (disclosed agreements only). */
  requiresDebtorConfirmation: defaulted(boolean),
  concentrationLimit: defaulted(numeric(5, 2)),
  concentrationThreshold: defaulted(money),
  signatureStatus: defaulted(oneOf(AGREEMENT_SIGNATURE_STATUSES)),
  signedOn: nullable(day),
  signedBy: nullable(uuid),
  documentId: nullable(uuid),
});

/** One version of a client's factoring agreement (docs/money.md); rows are never deleted, a financing keeps the version it used. */
export class Agreement extends tableModel('agreements', columns) {
  declare client?: NonAttribute<Client>;
}
