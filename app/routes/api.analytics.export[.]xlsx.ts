import type { ActionFunctionArgs } from '@remix-run/node';
import { analyticsFor } from '~/analytics/analytics.server.ts';
import { analyticsDownload, requestedPeriod } from '~/analytics/request.server.ts';
import { analyticsXlsx, analyticsXlsxFileName } from '~/analytics/xlsx.server.ts';
import { XLSX_CONTENT_TYPE } from '~/exports/xlsx.server.ts';
import { i18nServer } from '~/i18next.server.ts';
import { methodNotAllowed } from '~/utils/api.server.ts';
import { apiLoader } from '~/utils/api-route.server.ts';

/**
 * GET /api/analytics/export.xlsx?period=: the shown period's figures as an
 * Excel workbook (app/analytics/xlsx.server.ts), labelled in the reader's
 * language. A resource route, so the page's plain link works without JavaScript.
 */
export const loader = apiLoader('read:all', async ({ request }) => {
  const data = await analyticsFor({ period: requestedPeriod(request), now: new Date() });
  const t = await i18nServer.getFixedT(request);
  const bytes = analyticsXlsx(data, (key, options) => t(key, options));
  return analyticsDownload(bytes, XLSX_CONTENT_TYPE, analyticsXlsxFileName(data));
});

export function action(_args: ActionFunctionArgs) {
  return methodNotAllowed(['GET']);
}
