import { apiJson, methodNotAllowed } from '~/utils/api.server.ts';
import { workflowMetrics } from '~/workflows/metrics.server.ts';
import { apiLoader } from '~/utils/api-route.server.ts';

/** GET /api/workflow-metrics {totalWorkflows, activeWorkflows, completionRate, averageProcessingTime (minutes)}. */
export const loader = apiLoader('read:all', async () => {
  return apiJson(await workflowMetrics());
});

export const action = () => methodNotAllowed(['GET']);
