import type { NonAttribute } from 'sequelize';
import { withAudit } from './base.ts';
import { char, defaulted, instant, money, nullable, oneOf, tableModel, text, uuid } from './columns.ts';
import { PAYOUT_KINDS, PAYOUT_STATUSES } from './enums.ts';
import type { Client } from './Client.ts';
import type { Invoice } from './Invoice.ts';

const columns = withAudit({
  clientId: uuid,
  invoiceId: uuid,
  /** One of each kind per invoice. */
  kind: oneOf(PAYOUT_KINDS),
  amount: money,
  currency: defaulted(char(3)),
  iban: text,
  status: defaulted(oneOf(PAYOUT_STATUSES)),
  exportBatchId: nullable(text),
  exportedAt: nullable(instant),
});

/** Money the factor pays a client: the advance at financing, the reserve when collected. */
export class Payout extends tableModel('payouts', columns) {
  declare client?: NonAttribute<Client>;
  declare invoice?: NonAttribute<Invoice>;
}
