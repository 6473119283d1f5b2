import type { NonAttribute } from 'sequelize';
import { withAudit } from './base.ts';
import { boolean, defaulted, integer, oneOf, tableModel, text } from './columns.ts';
import { EMAIL_TRIGGERS } from './enums.ts';
import type { EmailCampaign } from './EmailCampaign.ts';

const columns = withAudit({
  name: text,
  trigger: defaulted(oneOf(EMAIL_TRIGGERS)),
  subject: text,
  body: text,
  isActive: defaulted(boolean),
  usageCount: defaulted(integer),
});

/** Staff-editable email text (handlebars), rendered inside the MJML layout. */
export class EmailTemplate extends tableModel('email_templates', columns) {
  declare campaigns?: NonAttribute<EmailCampaign[]>;
}
