import type { ActionFunctionArgs } from '@remix-run/node';
import { activityLogFilters, listActivityLogs } from '~/dashboard/activity-logs.server.ts';
import { listParams, methodNotAllowed } from '~/utils/api.server.ts';
import { apiLoader, apiList } from '~/utils/api-route.server.ts';

/** GET /api/activity-logs: newest first, ?userId ?action ?entityType ?entityId ?from ?to ?limit ?offset; X-Total-Count. */
export const loader = apiLoader('read:all', async ({ request }) => {
  const { limit, offset } = listParams(request);
  const filters = activityLogFilters(new URL(request.url).searchParams);
  const { logs, total } = await listActivityLogs(filters, { limit, offset });
  return apiList(logs, total);
});

export function action(_args: ActionFunctionArgs) {
  return methodNotAllowed(['GET']);
}
