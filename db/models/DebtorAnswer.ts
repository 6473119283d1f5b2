import { withId } from './base.ts';
import { defaulted, instant, nullable, oneOf, tableModel, text, uuid } from './columns.ts';
import { DEBTOR_ANSWER_KINDS } from './enums.ts';

const columns = withId({
  linkId: uuid,
  invoiceId: uuid,
  answer: oneOf(DEBTOR_ANSWER_KINDS),
  /** With 'disputed': the dispute it opened. */
  disputeId: nullable(uuid),
  answeredAt: defaulted(instant),
  ip: nullable(text),
});

/** The debtor's answer on one invoice through its link, with time and address: the one record of "confirmed by the debtor". */
export class DebtorAnswer extends tableModel('debtor_answers', columns, { timestamps: false }) {}
