import type { NonAttribute } from 'sequelize';
import { withTimestamps } from './base.ts';
import { defaulted, instant, integer, jsonb, nullable, oneOf, tableModel, text, uuid } from './columns.ts';
import { EMAIL_LOG_STATUSES } from './enums.ts';
import type { Client } from './Client.ts';
import type { EmailCampaign } from './EmailCampaign.ts';
import type { EmailTemplate } from './EmailTemplate.ts';

const columns = withTimestamps({
  templateId: nullable(uuid),
  campaignId: nullable(uuid),
  clientId: nullable(uuid),
  /** Mail to a debtor: the debtor, and the invoice it is about. */
  customerId: nullable(uuid),
  invoiceId: nullable(uuid),
  recipient: text,
  subject: text,
  status: defaulted(oneOf(EMAIL_LOG_STATUSES)),
  /** Random, for the open pixel and click links; the database generates it. */
  trackingToken: defaulted(text),
  messageId: nullable(text),
  /** The tracked links of the message, in order. */
  links: defaulted(jsonb<unknown[]>()),
  errorMessage: nullable(text),
  attempts: defaulted(integer),
  sentAt: nullable(instant),
  openedAt: nullable(instant),
  clickedAt: nullable(instant),
});

/** One email to one recipient, written as 'queued' before the send so a crash cannot send twice. */
export class EmailLog extends tableModel('email_logs', columns) {
  declare template?: NonAttribute<EmailTemplate | null>;
  declare campaign?: NonAttribute<EmailCampaign | null>;
  declare client?: NonAttribute<Client | null>;
}
