import { withId } from './base.ts';
import { day, defaulted, instant, integer, money, nullable, oneOf, tableModel, uuid } from './columns.ts';
import { DUNNING_NOTICE_STATUSES, DUNNING_SKIP_REASONS } from './enums.ts';

const columns = withId({
  invoiceId: uuid,
  /** 1 … 4 (docs/collections.md#dunning). */
  level: integer,
  /** The business day the daily job handled it. */
  day: day,
  status: oneOf(DUNNING_NOTICE_STATUSES),
  skipReason: nullable(oneOf(DUNNING_SKIP_REASONS)),
  /** What the debtor still owed that day: the slip's amount. */
  openAmount: money,
  emailLogId: nullable(uuid),
  /** The payment slip PDF (documents), attached to the mail. */
  documentId: nullable(uuid),
  createdAt: defaulted(instant),
});

/** One reminder level an invoice reached: sent to the debtor with its payment slip, or skipped with the reason. */
export class DunningNotice extends tableModel('dunning_notices', columns, { updatedAt: false }) {}
