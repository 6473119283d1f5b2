import { activityLogChoices, activityLogFilterSchema, listActivityLogs, type ActivityLogFilters } from '../dashboard/activity-logs.server.ts';
import { pageCount, pageOffset, readListUrl, tabSchema } from '../utils/list-url.ts';
import { monitoringStatus } from './monitoring.server.ts';

/** The /monitoring page's tabs and the log tab's page size (docs/screens.md). */
export const MONITORING_TABS = ['system', 'integrations', 'logs'] as const;
export type MonitoringTab = (typeof MONITORING_TABS)[number];
export const LOG_PAGE_SIZE = 25;
const MONITORING_TAB = tabSchema(MONITORING_TABS, 'system');
const FILTER_KEYS = ['userId', 'action', 'entityType', 'from', 'to'] as const;

/** /monitoring?tab=&userId=&action=&entityType=&from=&to=&page=: everything lives in the URL. */
export async function loadMonitoring(url: URL) {
  const list = readListUrl(url);
  const search = list.params;
  const tab: MonitoringTab = list.read(MONITORING_TAB);
  const page = list.page;
  const raw = Object.fromEntries(FILTER_KEYS.map((key) => [key, search.get(key) ?? '']));
  const parsed = activityLogFilterSchema.safeParse(raw);
  const filters: ActivityLogFilters = parsed.success ? parsed.data : {};
  const [status, logs, choices] = await Promise.all([
    monitoringStatus(),
    tab === 'logs' && parsed.success ? listActivityLogs(filters, { limit: LOG_PAGE_SIZE, offset: pageOffset(page, LOG_PAGE_SIZE) }) : Promise.resolve(null),
    tab === 'logs' ? activityLogChoices() : Promise.resolve(null),
  ]);
  return {
    tab,
    filters: raw as Record<(typeof FILTER_KEYS)[number], string>,
    invalidFilter: !parsed.success,
    page,
    pages: logs ? pageCount(logs.total, LOG_PAGE_SIZE) : 1,
    status,
    logs,
    choices,
  };
}
