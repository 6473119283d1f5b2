import type { NonAttribute } from 'sequelize';
import { withId } from './base.ts';
import { boolean, defaulted, instant, integer, nullable, tableModel, text, uuid } from './columns.ts';
import type { Integration } from './Integration.ts';

const columns = withId({
  integrationId: uuid,
  operation: text,
  success: boolean,
  durationMs: integer,
  message: nullable(text),
  createdAt: defaulted(instant),
});

/** One call to an integration, for monitoring. */
export class IntegrationLog extends tableModel('integration_logs', columns, { updatedAt: false }) {
  declare integration?: NonAttribute<Integration>;
}
