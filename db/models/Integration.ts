import type { NonAttribute } from 'sequelize';
import { withTimestamps } from './base.ts';
import { boolean, defaulted, instant, integer, nullable, oneOf, tableModel, text } from './columns.ts';
import { INTEGRATION_MODES, INTEGRATION_STATUSES, INTEGRATION_TYPES } from './enums.ts';
import type { IntegrationLog } from './IntegrationLog.ts';

const columns = withTimestamps({
  name: text,
  description: nullable(text),
  type: oneOf(INTEGRATION_TYPES),
  status: defaulted(oneOf(INTEGRATION_STATUSES)),
  mode: defaulted(oneOf(INTEGRATION_MODES)),
  isEnabled: defaulted(boolean),
  endpoint: nullable(text),
  /** AES-256-GCM ciphertext of a JSON object of credentials. */
  settingsEncrypted: nullable(text),
  lastCheck: nullable(instant),
  lastSync: nullable(instant),
  errorCount: defaulted(integer),
  lastError: nullable(text),
});

/** An external service adapter's configuration and health; one row per type. */
export class Integration extends tableModel('integrations', columns) {
  declare logs?: NonAttribute<IntegrationLog[]>;
}
