import { withId } from './base.ts';
import { bigint, char, day, defaulted, instant, money, nullable, oneOf, tableModel, text, uuid } from './columns.ts';
import { LEDGER_KINDS } from './enums.ts';

const columns = withId({
  entryNumber: defaulted(bigint),
  clientId: uuid,
  bookedOn: day,
  kind: oneOf(LEDGER_KINDS),
  amount: money,
  currency: defaulted(char(3)),
  invoiceId: nullable(uuid),
  paymentId: nullable(uuid),
  payoutId: nullable(uuid),
  einvoiceId: nullable(uuid),
  adjustmentId: nullable(uuid),
  description: text,
  createdBy: nullable(uuid),
  createdAt: defaulted(instant),
});

/**
 * One movement on a client's account (client_ledger, append-only; written only
 * by postLedgerEntries in app/ledger/ledger.server.ts). Signed from the
 * factor's side: positive is owed by the client, negative owed to it.
 */
export class LedgerEntry extends tableModel('client_ledger', columns, { updatedAt: false }) {}
