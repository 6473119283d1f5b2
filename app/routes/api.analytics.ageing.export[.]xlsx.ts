import type { ActionFunctionArgs } from '@remix-run/node';
import { ageingFileName, ageingXlsx } from '~/analytics/ageing-export.server.ts';
import { ageingReport } from '~/analytics/ageing.server.ts';
import { XLSX_CONTENT_TYPE } from '~/exports/xlsx.server.ts';
import { i18nServer } from '~/i18next.server.ts';
import { analyticsDownload } from '~/analytics/request.server.ts';
import { methodNotAllowed } from '~/utils/api.server.ts';
import { apiLoader } from '~/utils/api-route.server.ts';

/**
 * GET /api/analytics/ageing/export.xlsx?asOf=&by=: every row of the ageing
 * report and its totals as an Excel workbook in the reader's language
 * (app/analytics/ageing-export.server.ts); a plain link works without JavaScript.
 */
export const loader = apiLoader('read:all', async ({ request }) => {
  const params = new URL(request.url).searchParams;
  const report = await ageingReport({ asOf: params.get('asOf'), by: params.get('by'), limit: null });
  const t = await i18nServer.getFixedT(request);
  const bytes = ageingXlsx(report, (key, options) => t(key, options));
  return analyticsDownload(bytes, XLSX_CONTENT_TYPE, ageingFileName(report, 'xlsx'));
});

export function action(_args: ActionFunctionArgs) {
  return methodNotAllowed(['GET']);
}
