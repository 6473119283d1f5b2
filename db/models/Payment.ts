import type { NonAttribute } from 'sequelize';
import { withTimestamps } from './base.ts';
import { char, defaulted, instant, money, nullable, oneOf, tableModel, text, uuid } from './columns.ts';
import { PAYMENT_METHODS, PAYMENT_SOURCES, PAYMENT_STATUSES } from './enums.ts';
import type { Invoice } from './Invoice.ts';
import type { User } from './User.ts';

const columns = withTimestamps({
  invoiceId: uuid,
  amount: money,
  currency: defaulted(char(3)),
  paymentMethod: defaulted(oneOf(PAYMENT_METHODS)),
  status: defaulted(oneOf(PAYMENT_STATUSES)),
  reference: nullable(text),
  notes: nullable(text),
  source: defaulted(oneOf(PAYMENT_SOURCES)),
  /** The bank's entry reference of an imported statement line; unique, so re-imports are refused. */
  bankEntryRef: nullable(text),
  recordedBy: nullable(uuid),
  processedBy: nullable(uuid),
  /** Set exactly when status is no longer 'pending'. */
  processedAt: nullable(instant),
});

/** Money the customer pays on a financed invoice (a collection). */
export class Payment extends tableModel('payments', columns) {
  declare invoice?: NonAttribute<Invoice>;
  declare recorder?: NonAttribute<User | null>;
  declare processor?: NonAttribute<User | null>;
}
