import { withId } from './base.ts';
import { defaulted, instant, nullable, oneOf, tableModel, uuid } from './columns.ts';
import { DEBTOR_NOTICE_OCCASIONS } from './enums.ts';

const columns = withId({
  clientId: uuid,
  customerId: uuid,
  agreementId: uuid,
  documentId: uuid,
  occasion: oneOf(DEBTOR_NOTICE_OCCASIONS),
  /** With 'financing': the invoice whose first financing wrote it. */
  invoiceId: nullable(uuid),
  emailLogId: nullable(uuid),
  /** Without the debtor's address: the task to deliver it by hand. */
  taskId: nullable(uuid),
  createdBy: nullable(uuid),
  createdAt: defaulted(instant),
});

/** A notice of assignment written for a client–debtor pair (docs/collections.md): its PDF, the agreement version, and how it went out. */
export class DebtorNotice extends tableModel('debtor_notices', columns, { timestamps: false }) {}
