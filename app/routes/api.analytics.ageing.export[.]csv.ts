import type { ActionFunctionArgs } from '@remix-run/node';
import { ageingCsv, ageingFileName } from '~/analytics/ageing-export.server.ts';
import { ageingReport } from '~/analytics/ageing.server.ts';
import { analyticsDownload } from '~/analytics/request.server.ts';
import { methodNotAllowed } from '~/utils/api.server.ts';
import { apiLoader } from '~/utils/api-route.server.ts';

/**
 * GET /api/analytics/ageing/export.csv?asOf=&by=: every row of the ageing
 * report and its totals as CSV (app/analytics/ageing-export.server.ts). A
 * resource route, so the page's plain link downloads it without JavaScript.
 */
export const loader = apiLoader('read:all', async ({ request }) => {
  const params = new URL(request.url).searchParams;
  const report = await ageingReport({ asOf: params.get('asOf'), by: params.get('by'), limit: null });
  return analyticsDownload(ageingCsv(report), 'text/csv; charset=utf-8', ageingFileName(report, 'csv'));
});

export function action(_args: ActionFunctionArgs) {
  return methodNotAllowed(['GET']);
}
