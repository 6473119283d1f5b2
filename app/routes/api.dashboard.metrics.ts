import type { ActionFunctionArgs } from '@remix-run/node';
import { dashboardMetrics } from '~/dashboard/metrics.server.ts';
import { apiJson, methodNotAllowed } from '~/utils/api.server.ts';
import { apiLoader } from '~/utils/api-route.server.ts';

/**
 * GET /api/dashboard/metrics (docs/api.md): availableForFinancing, activeClients, invoicesInProcess,
 * automationSuccess, invoiceStats, historicalData (90 days), riskStats, and the cards' computed `notes`.
 */
export const loader = apiLoader('read:all', async () => {
  return apiJson(await dashboardMetrics({ now: new Date() }));
});

export function action(_args: ActionFunctionArgs) {
  return methodNotAllowed(['GET']);
}
