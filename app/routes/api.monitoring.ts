import type { ActionFunctionArgs } from '@remix-run/node';
import { monitoringStatus } from '~/monitoring/monitoring.server.ts';
import { apiJson, methodNotAllowed } from '~/utils/api.server.ts';
import { apiLoader } from '~/utils/api-route.server.ts';

/** GET /api/monitoring: the /monitoring page's health as JSON (database latency, workers, queues, failed jobs, integrations). */
export const loader = apiLoader('read:all', async () => {
  return apiJson(await monitoringStatus());
});

export function action(_args: ActionFunctionArgs) {
  return methodNotAllowed(['GET']);
}
