import { selectRows } from '../db.server.ts';
import { pendingTasksOf } from '../tasks/tasks.server.ts';
import { workflowMetrics, type WorkflowMetrics } from '../workflows/metrics.server.ts';
import { listActivityLogs } from './activity-logs.server.ts';
import { activityStatus, PERIODS, type ActivityStatus, type Period } from './display.ts';
import { dashboardMetrics, type DashboardMetrics } from './metrics.server.ts';
import type { Integration } from '../../db/models/index.ts';
import type { RowOf } from '../../db/models/rows.ts';

export interface IntegrationStatusRow {
  id: string;
  name: string;
  type: string;
  status: string;
  isEnabled: boolean;
  lastCheck: string | null;
  errorCount: number;
  lastError: string | null;
}

/** The integrations table as it stands (the recurring health check keeps status, lastCheck, errorCount, lastError). */
export async function integrationStatuses(): Promise<IntegrationStatusRow[]> {
  const rows = await selectRows<RowOf<typeof Integration, 'id' | 'name' | 'type' | 'status' | 'is_enabled' | 'last_check' | 'error_count' | 'last_error'>>(
    `SELECT id, name, type, status, is_enabled, last_check, error_count, last_error FROM integrations ORDER BY name, type`,
  );
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    type: row.type,
    status: row.status,
    isEnabled: row.is_enabled,
    lastCheck: row.last_check ? new Date(row.last_check).toISOString() : null,
    errorCount: row.error_count,
    lastError: row.last_error,
  }));
}

export interface RecentActivity {
  id: string;
  action: string;
  entityType: string | null;
  userName: string | null;
  details: Record<string, unknown>;
  createdAt: string;
  status: ActivityStatus;
}

/** A dashboard section: its data, or that it failed (the page shows the section's error text, docs/screens.md). */
export type Section<T> = { ok: true; data: T } | { ok: false };

async function section<T>(load: () => Promise<T>): Promise<Section<T>> {
  try {
    return { ok: true, data: await load() };
  } catch (error) {
    console.error('Dashboard section failed:', error);
    return { ok: false };
  }
}

export const RECENT_ACTIVITIES = 10;
export const MY_TASKS = 10;

/** Everything the dashboard shows, each section loaded (and failing) on its own. */
export async function loadDashboard({ userId, period, now = new Date(), request }: { userId: string; period: Period; now?: Date; request?: Request }) {
  const [metrics, integrations, workflows, activities, tasks] = await Promise.all([
    section<DashboardMetrics>(() => dashboardMetrics({ now })),
    section(integrationStatuses),
    section<WorkflowMetrics>(workflowMetrics),
    section<RecentActivity[]>(async () => {
      const { logs } = await listActivityLogs({}, { limit: RECENT_ACTIVITIES, count: false });
      return logs.map((log) => ({
        id: log.id,
        action: log.action,
        entityType: log.entityType,
        userName: log.userName,
        details: log.details,
        createdAt: log.createdAt,
        status: activityStatus(log.action),
      }));
    }),
    section(() => pendingTasksOf(userId, { limit: MY_TASKS, request })),
  ]);
  const days = PERIODS[period];
  return {
    period,
    metrics: metrics.ok ? { ok: true as const, data: { ...metrics.data, historicalData: metrics.data.historicalData.slice(-days) } } : metrics,
    integrations,
    workflows,
    activities,
    tasks,
  };
}
