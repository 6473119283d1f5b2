import type { NonAttribute } from 'sequelize';
import { withAudit } from './base.ts';
import { arrayOf, defaulted, instant, integer, nullable, oneOf, tableModel, text, uuid } from './columns.ts';
import { CAMPAIGN_RECIPIENTS, CAMPAIGN_STATUSES } from './enums.ts';
import type { EmailLog } from './EmailLog.ts';
import type { EmailTemplate } from './EmailTemplate.ts';

const columns = withAudit({
  name: text,
  templateId: uuid,
  recipients: defaulted(oneOf(CAMPAIGN_RECIPIENTS)),
  /** Used when recipients is 'specific_clients'. */
  specificClientIds: defaulted(arrayOf(uuid)),
  status: defaulted(oneOf(CAMPAIGN_STATUSES)),
  scheduledAt: nullable(instant),
  startedAt: nullable(instant),
  completedAt: nullable(instant),
  totalRecipients: nullable(integer),
});

/** One template sent to a set of clients. */
export class EmailCampaign extends tableModel('email_campaigns', columns) {
  declare template?: NonAttribute<EmailTemplate>;
  declare logs?: NonAttribute<EmailLog[]>;
}
