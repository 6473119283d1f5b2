import type { ActionFunctionArgs } from '@remix-run/node';
import { analyticsFor } from '~/analytics/analytics.server.ts';
import { requestedPeriod } from '~/analytics/request.server.ts';
import { apiJson, methodNotAllowed } from '~/utils/api.server.ts';
import { apiLoader } from '~/utils/api-route.server.ts';

/** GET /api/analytics?period=7d|30d|90d|1y: the figures of /analytics for the period (see app/analytics/analytics.server.ts). */
export const loader = apiLoader('read:all', async ({ request }) => {
  return apiJson(await analyticsFor({ period: requestedPeriod(request), now: new Date() }));
});

export function action(_args: ActionFunctionArgs) {
  return methodNotAllowed(['GET']);
}
