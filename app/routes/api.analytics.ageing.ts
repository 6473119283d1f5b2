import type { ActionFunctionArgs } from '@remix-run/node';
import { ageingReport } from '~/analytics/ageing.server.ts';
import { apiJson, listParams, methodNotAllowed } from '~/utils/api.server.ts';
import { apiLoader } from '~/utils/api-route.server.ts';

/**
 * GET /api/analytics/ageing?asOf=YYYY-MM-DD&by=client|customer&limit=&offset=:
 * the ageing report of the open receivables on the day (docs/collections.md#ageing),
 * one page of rows with the whole report's totals; X-Total-Count is the rows
 * of the whole report. 400 for a bad or future day or an unknown `by`.
 */
export const loader = apiLoader('read:all', async ({ request }) => {
  const params = new URL(request.url).searchParams;
  const { limit, offset } = listParams(request);
  const report = await ageingReport({ asOf: params.get('asOf'), by: params.get('by'), limit, offset });
  return apiJson(report, { headers: { 'X-Total-Count': String(report.count) } });
});

export function action(_args: ActionFunctionArgs) {
  return methodNotAllowed(['GET']);
}
