import type { LoaderFunctionArgs } from '@remix-run/node';
import { requirePermission } from '~/auth/permissions.server.ts';
import { apiJson, methodNotAllowed } from '~/utils/api.server.ts';
import { workflowMetrics } from '~/workflows/metrics.server.ts';

/** GET /api/workflow-metrics {totalWorkflows, activeWorkflows, completionRate, averageProcessingTime (minutes)}. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requirePermission(request, 'read:all', { api: true });
  return apiJson(await workflowMetrics());
}

export const action = () => methodNotAllowed(['GET']);
