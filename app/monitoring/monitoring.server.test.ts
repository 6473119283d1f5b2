import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { seedDemo } from '../../db/seed/demo.ts';
import { getSequelize } from '../../db/connection.ts';
import { queues } from '../jobs/queues.server.ts';
import { getRequest, signedInCookie } from '../auth/test-helpers.server.ts';
import { execute, selectOne, selectRows } from '../db.server.ts';
import { loader as monitoringApi } from '../routes/api.monitoring.ts';
import { loader as monitoringPage } from '../routes/_app.monitoring.tsx';
import { monitoringStatus } from './monitoring.server.ts';
import { createTestUser } from '../../tests/factories.ts';

let cookie: string;

beforeAll(async () => {
  await seedDemo(getSequelize(), { now: new Date() });
  cookie = await signedInCookie((await createTestUser()).id);
}, 120_000);

/** pg-boss's job table, as much of it as monitoring reads (the test database has no worker). */
async function createPgBossJobs() {
  await execute(`CREATE SCHEMA IF NOT EXISTS pgboss`);
  await execute(`CREATE TABLE IF NOT EXISTS pgboss.job (
    id uuid NOT NULL DEFAULT gen_random_uuid(), name text NOT NULL, state text NOT NULL, retry_count integer NOT NULL DEFAULT 0,
    created_on timestamptz NOT NULL DEFAULT now(), completed_on timestamptz, output jsonb)`);
  const jobs: [string, string, string | null][] = [
    ['heartbeat', 'created', null],
    ['heartbeat', 'created', null],
    ['heartbeat', 'completed', 'now()'],
    ['workflow-step', 'retry', null],
    ['workflow-step', 'active', null],
    ['workflow-step', 'failed', "now() - interval '2 hours'"],
    ['workflow-step', 'failed', "now() - interval '3 days'"],
    ['overdue-risk', 'failed', "now() - interval '1 hour'"],
    ['not-ours', 'created', null],
  ];
  for (const [name, state, completed] of jobs) {
    await execute(`INSERT INTO pgboss.job (name, state, completed_on, output) VALUES (:name, :state, ${completed ?? 'NULL'}, CAST(:output AS jsonb))`, {
      name,
      state,
      output: JSON.stringify(state === 'failed' ? { message: `${name} broke` } : {}),
    });
  }
}

describe('monitoring status', () => {
  describe('before any worker has run', () => {
    // The state it is about, whatever the file's other tests left: no pg-boss tables, no heartbeats.
    beforeEach(async () => {
      await execute('DROP SCHEMA IF EXISTS pgboss CASCADE');
      await execute('DELETE FROM worker_heartbeats');
    });

    it('without pg-boss tables or a worker: database up with a latency, worker not running, queues unavailable', async () => {
      const status = await monitoringStatus();
      expect(status.database.connected).toBe(true);
      expect(status.database.latencyMs).toBeGreaterThanOrEqual(0);
      expect(status.workerRunning).toBe(false);
      expect(status.healthy).toBe(false);
      expect(status.queuesAvailable).toBe(false);
      expect(status.queues.map((queue) => queue.name)).toEqual(queues.map((queue) => queue.name));
    });
  });

  it('worker heartbeats: a fresh beat is running, a stale one is not', async () => {
    await execute(`INSERT INTO worker_heartbeats (worker_id, hostname, pid, started_at, last_beat_at)
                   VALUES ('w-fresh', 'app-1', 101, now() - interval '1 hour', now() - interval '30 seconds'),
                          ('w-stale', 'app-2', 102, now() - interval '1 day', now() - interval '10 minutes')`);
    const status = await monitoringStatus();
    expect(status.workers.map((worker) => [worker.workerId, worker.running])).toEqual([
      ['w-fresh', true],
      ['w-stale', false],
    ]);
    expect(status.workerRunning).toBe(true);
    expect(status.healthy).toBe(true);
  });

  it('queue depths and failed jobs of the last 24 h equal their SQL over pgboss.job', async () => {
    await createPgBossJobs();
    const status = await monitoringStatus();
    expect(status.queuesAvailable).toBe(true);
    const expected = await selectRows<{ name: string; created: number; retry: number; active: number; failed: number }>(
      `SELECT name, sum((state = 'created')::int)::int AS created, sum((state = 'retry')::int)::int AS retry,
              sum((state = 'active')::int)::int AS active,
              sum((state = 'failed' AND completed_on > now() - interval '1 day')::int)::int AS failed
         FROM pgboss.job GROUP BY name`,
    );
    for (const queue of status.queues) {
      const row = expected.find((candidate) => candidate.name === queue.name);
      expect(queue).toEqual({ name: queue.name, created: row?.created ?? 0, retry: row?.retry ?? 0, active: row?.active ?? 0, failed24h: row?.failed ?? 0 });
    }
    expect(status.queues.find((queue) => queue.name === 'heartbeat')).toMatchObject({ created: 2 });
    expect(status.failedJobs24h).toBe(2);
    expect(status.summary.queuedJobs).toBe(3);
    expect(status.recentFailedJobs.map((job) => [job.name, job.error])).toEqual([
      ['overdue-risk', 'overdue-risk broke'],
      ['workflow-step', 'workflow-step broke'],
    ]);
  });

  it('integration health equals the integrations table', async () => {
    const status = await monitoringStatus();
    const rows = await selectRows<{ type: string; status: string; error_count: number; last_error: string | null }>(
      'SELECT type, status, error_count, last_error FROM integrations ORDER BY name, type',
    );
    expect(status.integrations.map((row) => ({ type: row.type, status: row.status, error_count: row.errorCount, last_error: row.lastError }))).toEqual(rows);
    const counts = await selectOne<{ active: number; errors: number }>(
      `SELECT count(*) FILTER (WHERE status = 'active')::int AS active, count(*) FILTER (WHERE status = 'error')::int AS errors FROM integrations`,
    );
    expect(status.summary.activeIntegrations).toBe(counts!.active);
    expect(status.summary.integrationErrors).toBe(counts!.errors);
  });

  it('GET /api/monitoring answers the status; a visitor gets 401', async () => {
    const response = await monitoringApi({ request: getRequest('/api/monitoring', cookie), params: {}, context: {} });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.database.connected).toBe(true);
    expect(body.queues).toHaveLength(queues.length);
    const anonymous = await monitoringApi({ request: getRequest('/api/monitoring'), params: {}, context: {} }).catch((error: Response) => error);
    expect(anonymous.status).toBe(401);
  });

  it('the page loader filters and pages the activity log from the URL', async () => {
    const total = (await selectOne<{ n: number }>(`SELECT count(*)::int AS n FROM activity_logs WHERE entity_type = 'invoice'`))!.n;
    const response = await monitoringPage({ request: getRequest('/monitoring?tab=logs&entityType=invoice&page=2', cookie), params: {}, context: {} });
    const data = (await response.json()) as unknown as {
      tab: string;
      pages: number;
      logs: { total: number; logs: { entityType: string | null }[] };
      choices: { entityTypes: string[] };
    };
    expect(data.tab).toBe('logs');
    expect(data.logs.total).toBe(total);
    expect(data.pages).toBe(Math.max(1, Math.ceil(total / 25)));
    expect(data.logs.logs.every((log) => log.entityType === 'invoice')).toBe(true);
    expect(data.choices.entityTypes).toContain('invoice');

    const bad = await (await monitoringPage({ request: getRequest('/monitoring?tab=logs&from=nonsense', cookie), params: {}, context: {} })).json();
    expect(bad.invalidFilter).toBe(true);
    expect(bad.logs).toBeNull();
  });
});
