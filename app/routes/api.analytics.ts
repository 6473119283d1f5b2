import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { analyticsFor } from '~/analytics/analytics.server.ts';
import { requestedPeriod } from '~/analytics/request.server.ts';
import { requirePermission } from '~/auth/permissions.server.ts';
import { apiJson, methodNotAllowed } from '~/utils/api.server.ts';

/** GET /api/analytics?period=7d|30d|90d|1y: the figures of /analytics for the period (see app/analytics/analytics.server.ts). */
export async function loader({ request }: LoaderFunctionArgs) {
  await requirePermission(request, 'read:all', { api: true });
  return apiJson(await analyticsFor({ period: requestedPeriod(request), now: new Date() }));
}

export function action(_args: ActionFunctionArgs) {
  return methodNotAllowed(['GET']);
}
