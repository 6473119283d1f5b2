import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { requirePermission } from '~/auth/permissions.server.ts';
import { dashboardMetrics } from '~/dashboard/metrics.server.ts';
import { apiJson, methodNotAllowed } from '~/utils/api.server.ts';

/**
 * GET /api/dashboard/metrics (docs/api.md): availableForFinancing, activeClients, invoicesInProcess,
 * automationSuccess, invoiceStats, historicalData (90 days), riskStats, and the cards' computed `notes`.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requirePermission(request, 'read:all', { api: true });
  return apiJson(await dashboardMetrics({ now: new Date() }));
}

export function action(_args: ActionFunctionArgs) {
  return methodNotAllowed(['GET']);
}
