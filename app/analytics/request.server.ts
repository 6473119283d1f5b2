import { apiError } from '../utils/api.server.ts';
import { DEFAULT_ANALYTICS_PERIOD, isAnalyticsPeriod, type AnalyticsPeriod } from './periods.ts';

/** ?period= of an analytics API request: missing is 30d, anything but 7d, 30d, 90d, 1y a 400. */
export function requestedPeriod(request: Request): AnalyticsPeriod {
  const value = new URL(request.url).searchParams.get('period');
  if (value === null || value === '') return DEFAULT_ANALYTICS_PERIOD;
  if (!isAnalyticsPeriod(value)) throw apiError(400, 'analytics.validation.periodInvalid', { errors: { period: ['analytics.validation.periodOneOf'] } });
  return value;
}

/** An analytics file (CSV or XLSX) as a download that is never cached: the export routes' one response. */
export function analyticsDownload(body: string | Uint8Array<ArrayBuffer>, contentType: string, fileName: string): Response {
  const headers: Record<string, string> = { 'Content-Type': contentType, 'Content-Disposition': `attachment; filename="${fileName}"`, 'Cache-Control': 'no-store' };
  if (typeof body !== 'string') headers['Content-Length'] = String(body.byteLength);
  return new Response(body, { headers });
}
