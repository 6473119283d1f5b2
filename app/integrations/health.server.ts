import { selectRows } from '../db.server.ts';
import { ensureIntegrations } from './core.server.ts';
import { testIntegration, type TestResult } from './integrations.server.ts';
import type { IntegrationType } from './types.ts';

/**
 * The recurring health check (worker job 'integration-health', every 15
 * minutes): tests each enabled integration; each test records status,
 * last_check, error_count and last_error on the row and a log row.
 */
export async function checkIntegrationsHealth(): Promise<{ type: IntegrationType; result: TestResult }[]> {
  await ensureIntegrations();
  const rows = await selectRows<{ type: IntegrationType }>(`SELECT type FROM integrations WHERE is_enabled ORDER BY type`);
  const results: { type: IntegrationType; result: TestResult }[] = [];
  for (const { type } of rows) results.push({ type, result: await testIntegration({ actor: null, type }) });
  return results;
}
