import { selectOne, selectRows } from '../db.server.ts';
import { queueDepths } from '../jobs/job-table.server.ts';
import { queues } from '../jobs/queues.server.ts';
import { integrationStatuses, type IntegrationStatusRow } from '../dashboard/dashboard.server.ts';
import { sqlBusinessLocal, sqlFromBusinessLocal } from '../utils/business-time.ts';
import type { WorkerHeartbeat } from '../../db/models/index.ts';
import type { RowOf } from '../../db/models/rows.ts';
import { iso } from '../utils/api-values.ts';

/** A worker that has not beaten for this long is reported as not running (as on Settings). */
export const WORKER_STALE_AFTER_SECONDS = 120;

export interface WorkerStatus {
  workerId: string;
  hostname: string;
  pid: number;
  startedAt: string;
  lastBeatAt: string;
  running: boolean;
}

export interface QueueStatus {
  name: string;
  created: number;
  retry: number;
  active: number;
  /** Failed in the last 24 hours. */
  failed24h: number;
}

export interface FailedJob {
  id: string;
  name: string;
  failedAt: string;
  retryCount: number;
  error: string | null;
}

export interface MonitoringStatus {
  checkedAt: string;
  healthy: boolean;
  /** Share of the checks (database, worker, queues, integrations) that pass, percent. */
  healthPercent: number;
  database: { connected: boolean; latencyMs: number | null };
  workers: WorkerStatus[];
  workerRunning: boolean;
  /** False when pg-boss has not created its schema yet (no worker has ever started). */
  queuesAvailable: boolean;
  queues: QueueStatus[];
  failedJobs24h: number;
  recentFailedJobs: FailedJob[];
  integrations: IntegrationStatusRow[];
  integrationErrors: number;
  summary: { activeIntegrations: number; integrationErrors: number; queuedJobs: number; failedJobs24h: number; activityToday: number };
}

async function databaseLatency(): Promise<{ connected: boolean; latencyMs: number | null }> {
  try {
    const started = process.hrtime.bigint();
    await selectOne('SELECT 1 AS one');
    return { connected: true, latencyMs: Math.round(Number(process.hrtime.bigint() - started) / 10_000) / 100 };
  } catch {
    return { connected: false, latencyMs: null };
  }
}

async function workerStatuses(): Promise<WorkerStatus[]> {
  const rows = await selectRows<RowOf<typeof WorkerHeartbeat> & { fresh: boolean }>(
    `SELECT worker_id, hostname, pid, started_at, last_beat_at,
            last_beat_at > now() - make_interval(secs => :stale) AS fresh
       FROM worker_heartbeats ORDER BY last_beat_at DESC`,
    { stale: WORKER_STALE_AFTER_SECONDS },
  );
  return rows.map((row) => ({
    workerId: row.worker_id,
    hostname: row.hostname,
    pid: row.pid,
    startedAt: iso(row.started_at),
    lastBeatAt: iso(row.last_beat_at),
    running: row.fresh,
  }));
}

/** Queue depths and failures from pg-boss's own job table (app/jobs/job-table.server.ts), for every queue declared in app/jobs/queues.server.ts. */
async function queueStatuses(): Promise<{ available: boolean; queues: QueueStatus[]; failed: FailedJob[] }> {
  const names = queues.map((queue) => queue.name);
  const state = await queueDepths(names);
  if (!state) {
    return { available: false, queues: names.map((name) => ({ name, created: 0, retry: 0, active: 0, failed24h: 0 })), failed: [] };
  }
  const { depths: rows, failed } = state;
  const byName = new Map(rows.map((row) => [row.name, row]));
  return {
    available: true,
    queues: names.map((name) => byName.get(name) ?? { name, created: 0, retry: 0, active: 0, failed24h: 0 }),
    failed: failed.map((row) => ({
      id: row.id,
      name: row.name,
      failedAt: iso(row.completed_on),
      retryCount: row.retry_count,
      error: row.error,
    })),
  };
}

/** /monitoring and GET /api/monitoring: real health of the database, the worker, the job queues and the integrations. */
export async function monitoringStatus(): Promise<MonitoringStatus> {
  const database = await databaseLatency();
  const [workers, queueState, integrations, activity] = database.connected
    ? await Promise.all([
        workerStatuses(),
        queueStatuses(),
        integrationStatuses(),
        selectOne<{ today: number }>(
          `SELECT count(*)::int AS today FROM activity_logs
            WHERE created_at >= ${sqlFromBusinessLocal(`date_trunc('day', ${sqlBusinessLocal('now()')})`)}`,
        ),
      ])
    : [[], { available: false, queues: [], failed: [] }, [], null];
  const workerRunning = workers.some((worker) => worker.running);
  const failedJobs24h = queueState.queues.reduce((sum, queue) => sum + queue.failed24h, 0);
  const queuedJobs = queueState.queues.reduce((sum, queue) => sum + queue.created + queue.retry, 0);
  const integrationErrors = integrations.filter((integration) => integration.status === 'error').length;
  const checks = [database.connected, workerRunning, queueState.available && failedJobs24h === 0, integrationErrors === 0];
  return {
    checkedAt: new Date().toISOString(),
    healthy: database.connected && workerRunning,
    healthPercent: Math.round((100 * checks.filter(Boolean).length) / checks.length),
    database,
    workers,
    workerRunning,
    queuesAvailable: queueState.available,
    queues: queueState.queues,
    failedJobs24h,
    recentFailedJobs: queueState.failed,
    integrations,
    integrationErrors,
    summary: {
      activeIntegrations: integrations.filter((integration) => integration.status === 'active').length,
      integrationErrors,
      queuedJobs,
      failedJobs24h,
      activityToday: activity?.today ?? 0,
    },
  };
}
