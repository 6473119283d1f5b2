import type { ActionFunctionArgs } from '@remix-run/node';
import { analyticsFor } from '~/analytics/analytics.server.ts';
import { analyticsCsv, analyticsFileName } from '~/analytics/csv.server.ts';
import { analyticsDownload, requestedPeriod } from '~/analytics/request.server.ts';
import { methodNotAllowed } from '~/utils/api.server.ts';
import { apiLoader } from '~/utils/api-route.server.ts';

/**
 * GET /api/analytics/export.csv?period=: the shown period's figures as a CSV
 * download (UTF-8 with BOM, semicolon-separated, decimal comma; see
 * app/analytics/csv.server.ts). A resource route, so the page's plain link
 * downloads it with or without JavaScript.
 */
export const loader = apiLoader('read:all', async ({ request }) => {
  const data = await analyticsFor({ period: requestedPeriod(request), now: new Date() });
  return analyticsDownload(analyticsCsv(data), 'text/csv; charset=utf-8', analyticsFileName(data));
});

export function action(_args: ActionFunctionArgs) {
  return methodNotAllowed(['GET']);
}
