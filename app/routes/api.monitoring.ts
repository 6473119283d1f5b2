import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { requirePermission } from '~/auth/permissions.server.ts';
import { monitoringStatus } from '~/monitoring/monitoring.server.ts';
import { apiJson, methodNotAllowed } from '~/utils/api.server.ts';

/** GET /api/monitoring: the /monitoring page's health as JSON (database latency, workers, queues, failed jobs, integrations). */
export async function loader({ request }: LoaderFunctionArgs) {
  await requirePermission(request, 'read:all', { api: true });
  return apiJson(await monitoringStatus());
}

export function action(_args: ActionFunctionArgs) {
  return methodNotAllowed(['GET']);
}
