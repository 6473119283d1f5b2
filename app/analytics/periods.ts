/** Analytics periods shared by the server and the browser (docs/screens.md). No server imports here. */

/** The period selector, in the URL as ?period=: the last N Croatian calendar days, today included. */
export const ANALYTICS_PERIODS = { '7d': 7, '30d': 30, '90d': 90, '1y': 365 } as const;
export type AnalyticsPeriod = keyof typeof ANALYTICS_PERIODS;
export const DEFAULT_ANALYTICS_PERIOD: AnalyticsPeriod = '30d';

/** How the chart groups the period's days: per day for 7d/30d, per ISO week for 90d, per calendar month for 1y. */
export const SERIES_BUCKET: Record<AnalyticsPeriod, 'day' | 'week' | 'month'> = { '7d': 'day', '30d': 'day', '90d': 'week', '1y': 'month' };

export function isAnalyticsPeriod(value: unknown): value is AnalyticsPeriod {
  return typeof value === 'string' && Object.hasOwn(ANALYTICS_PERIODS, value);
}

/** The page's reading of ?period=: anything unknown is the default. */
export function analyticsPeriodOf(value: string | null): AnalyticsPeriod {
  return isAnalyticsPeriod(value) ? value : DEFAULT_ANALYTICS_PERIOD;
}

export const ANALYTICS_TABS = ['overview', 'performance', 'risk', 'financial', 'ageing'] as const;
export type AnalyticsTab = (typeof ANALYTICS_TABS)[number];
export function analyticsTabOf(value: string | null): AnalyticsTab {
  return value && (ANALYTICS_TABS as readonly string[]).includes(value) ? (value as AnalyticsTab) : 'overview';
}
