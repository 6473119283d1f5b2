import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { requirePermission } from '~/auth/permissions.server.ts';
import { activityLogFilters, listActivityLogs } from '~/dashboard/activity-logs.server.ts';
import { apiJson, listParams, methodNotAllowed } from '~/utils/api.server.ts';

/** GET /api/activity-logs: newest first, ?userId ?action ?entityType ?entityId ?from ?to ?limit ?offset; X-Total-Count. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requirePermission(request, 'read:all', { api: true });
  const { limit, offset } = listParams(request);
  const filters = activityLogFilters(new URL(request.url).searchParams);
  const { logs, total } = await listActivityLogs(filters, { limit, offset });
  return apiJson(logs, { headers: { 'X-Total-Count': String(total) } });
}

export function action(_args: ActionFunctionArgs) {
  return methodNotAllowed(['GET']);
}
