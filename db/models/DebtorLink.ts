import { withId } from './base.ts';
import { defaulted, instant, nullable, tableModel, text, uuid } from './columns.ts';

const columns = withId({
  clientId: uuid,
  customerId: uuid,
  noticeId: uuid,
  tokenHash: text,
  expiresAt: instant,
  emailLogId: nullable(uuid),
  /** The link this one replaced (a resend). */
  replacesId: nullable(uuid),
  createdBy: nullable(uuid),
  createdAt: defaulted(instant),
  revokedAt: nullable(instant),
  revokedBy: nullable(uuid),
  spentAt: nullable(instant),
  submittedIp: nullable(text),
  acknowledgedAt: nullable(instant),
});

/** The debtor's personal link to its page (docs/collections.md): only the token's SHA-256 is kept; it expires, is spent by one submit, or is revoked. */
export class DebtorLink extends tableModel('debtor_links', columns, { timestamps: false }) {}
