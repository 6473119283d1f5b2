import { checkIntegrationsHealth } from '../../app/integrations/health.server.ts';
import type { JobHandler } from './define.ts';

/**
 * Every 15 minutes: tests each enabled integration; each test records status,
 * lastCheck, errorCount and lastError (app/integrations/health.server.ts).
 * A failing integration is a result, not a job failure.
 */
export const queue = 'integration-health';

export const handler: JobHandler<typeof queue> = async (_jobs, { log }) => {
  const results = await checkIntegrationsHealth();
  const failing = results.filter(({ result }) => !result.success);
  if (failing.length > 0) log.info(`integration-health: ${failing.map(({ type, result }) => `${type}: ${result.message}`).join('; ')}`);
};
