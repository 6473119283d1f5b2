import { withId } from './base.ts';
import { defaulted, instant, nullable, tableModel, text, uuid } from './columns.ts';

const columns = withId({
  invoiceId: uuid,
  reason: text,
  heldAt: defaulted(instant),
  heldBy: nullable(uuid),
  liftedAt: nullable(instant),
  liftedBy: nullable(uuid),
  liftNote: nullable(text),
});

/** A manager's hold on an invoice's reminders: while it is open (not lifted), the dunning job sends nothing. */
export class DunningHold extends tableModel('dunning_holds', columns, { timestamps: false }) {}
