import { beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../../db/seed/demo.ts';
import { getSequelize } from '../../db/connection.ts';
import { getRequest, signedInCookie } from '../auth/test-helpers.server.ts';
import { selectOne, selectRows } from '../db.server.ts';
import { loader as indexLoader } from '../routes/_app._index.tsx';
import { loader as metricsLoader } from '../routes/api.dashboard.metrics.ts';
import { pendingTasksOf } from '../tasks/tasks.server.ts';
import { workflowMetrics } from '../workflows/metrics.server.ts';
import { loadDashboard } from './dashboard.server.ts';
import { automaticAssessmentPercent, processingTimePercent } from './display.ts';
import { dashboardMetrics } from './metrics.server.ts';
import { createTestUser } from '../../tests/factories.ts';

/**
 * Each dashboard figure against the same figure computed here, independently,
 * with plain SQL over the seeded demo book.
 */
const now = new Date();
let cookie: string;
let userId: string;

beforeAll(async () => {
  await seedDemo(getSequelize(), { now });
  const user = await createTestUser({ role: 'user' });
  userId = user.id;
  cookie = await signedInCookie(user.id);
}, 120_000);

/** The Croatian month start of `now` and of the month before, as JS dates. */
async function monthStarts() {
  const row = await selectOne<{ this_month: Date; last_month: Date }>(
    `SELECT timezone('Europe/Zagreb', date_trunc('month', timezone('Europe/Zagreb', CAST(:now AS timestamptz)))) AS this_month,
            timezone('Europe/Zagreb', date_trunc('month', timezone('Europe/Zagreb', CAST(:now AS timestamptz))) - interval '1 month') AS last_month`,
    { now: now.toISOString() },
  );
  return { thisMonth: new Date(row!.this_month), lastMonth: new Date(row!.last_month) };
}

const count = async (sql: string, replacements: Record<string, unknown> = {}) => (await selectOne<{ n: number }>(sql, replacements))!.n;

describe('dashboard metrics over the demo book', () => {
  it('the four cards equal their SQL', async () => {
    const metrics = await dashboardMetrics({ now });
    const clients = await selectRows<{ credit_limit: string | null; used_credit: string; status: string }>('SELECT credit_limit, used_credit, status FROM clients');
    // In cents, summed row by row.
    const availableCents = clients
      .filter((client) => client.status === 'active')
      .reduce((sum, client) => sum + Math.max(Math.round(Number(client.credit_limit ?? 0) * 100) - Math.round(Number(client.used_credit) * 100), 0), 0);
    expect(metrics.availableForFinancing).toBe(availableCents / 100);
    expect(metrics.availableForFinancing).toBeGreaterThan(0);
    expect(metrics.activeClients).toBe(await count(`SELECT count(*)::int AS n FROM clients WHERE status = 'active'`));
    expect(metrics.invoicesInProcess).toBe(await count(`SELECT count(*)::int AS n FROM invoices WHERE status IN ('pending', 'verified', 'approved')`));
    const completed = await count(`SELECT count(*)::int AS n FROM workflow_instances WHERE status = 'completed'`);
    const failed = await count(`SELECT count(*)::int AS n FROM workflow_instances WHERE status = 'failed'`);
    expect(completed + failed).toBeGreaterThan(0);
    expect(metrics.automationSuccess).toBe(Math.round((1000 * completed) / (completed + failed)) / 10);
  });

  it('invoice and risk statistics equal their SQL', async () => {
    const metrics = await dashboardMetrics({ now });
    const byStatus = Object.fromEntries(
      (await selectRows<{ status: string; n: number }>('SELECT status, count(*)::int AS n FROM invoices GROUP BY status')).map((row) => [row.status, row.n]),
    );
    const all = Object.values(byStatus).reduce((sum, n) => sum + n, 0);
    expect(metrics.invoiceStats).toEqual({
      received: all,
      processing: (byStatus.pending ?? 0) + (byStatus.verified ?? 0) + (byStatus.approved ?? 0),
      approved: await count('SELECT count(*)::int AS n FROM invoices WHERE approved_at IS NOT NULL'),
      rejected: byStatus.rejected ?? 0,
    });
    const risk = Object.fromEntries(
      (await selectRows<{ risk_category: string; n: number }>('SELECT risk_category, count(*)::int AS n FROM clients WHERE risk_category IS NOT NULL GROUP BY 1')).map((row) => [
        row.risk_category,
        row.n,
      ]),
    );
    expect(metrics.riskStats).toEqual({ low: risk.low ?? 0, medium: risk.medium ?? 0, high: risk.high ?? 0 });
  });

  it('historical data has the last 90 Croatian days, each day counting created, verified and approved invoices', async () => {
    const { historicalData } = await dashboardMetrics({ now });
    expect(historicalData).toHaveLength(90);
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Zagreb' }).format(now);
    expect(historicalData.at(-1)!.date).toBe(today);
    const first = historicalData[0].date;
    const perDay = async (column: string) =>
      Object.fromEntries(
        (
          await selectRows<{ day: string; n: number }>(
            `SELECT to_char(timezone('Europe/Zagreb', ${column}), 'YYYY-MM-DD') AS day, count(*)::int AS n FROM invoices
              WHERE ${column} IS NOT NULL GROUP BY 1`,
          )
        ).map((row) => [row.day, row.n]),
      );
    const [created, verified, approved] = await Promise.all([perDay('created_at'), perDay('verified_at'), perDay('approved_at')]);
    for (const point of historicalData) {
      expect(point).toEqual({ date: point.date, received: created[point.date] ?? 0, processed: verified[point.date] ?? 0, approved: approved[point.date] ?? 0 });
    }
    const sum = (map: Record<string, number>) =>
      Object.entries(map)
        .filter(([day]) => day >= first && day <= today)
        .reduce((total, [, n]) => total + n, 0);
    expect(historicalData.reduce((total, point) => total + point.received, 0)).toBe(sum(created));
    expect(sum(created)).toBeGreaterThan(0);
  });

  it('the sub-notes are computed against the previous month', async () => {
    const { notes, availableForFinancing } = await dashboardMetrics({ now });
    const { thisMonth, lastMonth } = await monthStarts();
    expect(notes.awaitingVerification).toBe(await count(`SELECT count(*)::int AS n FROM invoices WHERE status = 'pending'`));
    expect(notes.newActiveClientsThisMonth).toBe(await count(`SELECT count(*)::int AS n FROM clients WHERE status = 'active' AND created_at >= :start`, { start: thisMonth }));

    // Available at the start of this month: today's limits less the advances then outstanding (the ledger's sums).
    const rows = await selectRows<{ id: string; credit_limit: string | null }>(`SELECT id, credit_limit FROM clients WHERE status = 'active' AND created_at < :start`, {
      start: thisMonth,
    });
    let beforeCents = 0;
    for (const row of rows) {
      // The advances then outstanding: per invoice, its advance less its collections booked before the month, never below 0.
      const open = await selectOne<{ s: string | null }>(
        `SELECT sum(o.outstanding) AS s FROM (
           SELECT greatest(0, sum(amount)) AS outstanding FROM client_ledger
            WHERE client_id = :id AND kind IN ('advance', 'collection') AND booked_on < (CAST(:start AS timestamptz) AT TIME ZONE 'Europe/Zagreb')::date
            GROUP BY invoice_id) o`,
        { id: row.id, start: thisMonth },
      );
      beforeCents += Math.max(Math.round(Number(row.credit_limit ?? 0) * 100) - Math.round(Number(open?.s ?? 0) * 100), 0);
    }
    const nowCents = Math.round(availableForFinancing * 100);
    expect(notes.availableForFinancingChange).toBe(beforeCents === 0 ? null : Math.round((1000 * (nowCents - beforeCents)) / beforeCents) / 10);

    const rate = async (from: Date, to: Date | null) => {
      const row = await selectOne<{ done: number; all: number }>(
        `SELECT count(*) FILTER (WHERE status = 'completed')::int AS done, count(*)::int AS all
           FROM workflow_instances
          WHERE status IN ('completed', 'failed') AND coalesce(completed_at, updated_at) >= :from
            AND (CAST(:to AS timestamptz) IS NULL OR coalesce(completed_at, updated_at) < CAST(:to AS timestamptz))`,
        { from, to: to ? to.toISOString() : null },
      );
      return row!.all ? Math.round((1000 * row!.done) / row!.all) / 10 : null;
    };
    const current = await rate(thisMonth, null);
    const previous = await rate(lastMonth, thisMonth);
    expect(notes.automationSuccessChange).toBe(current === null || previous === null ? null : Math.round(10 * (current - previous)) / 10);

    // Instances finished in each window (and before them, which only the all-time rate counts): the rates follow.
    const finish = (status: 'completed' | 'failed', at: Date, count: number) =>
      getSequelize().query(
        `INSERT INTO workflow_instances (workflow_id, status, entity_type, entity_id, steps, started_at, completed_at, updated_at)
         SELECT (SELECT id FROM workflow_definitions ORDER BY id LIMIT 1), :status, 'client', gen_random_uuid(), '[]'::jsonb,
                CAST(:at AS timestamptz) - interval '1 hour', CASE WHEN :status = 'completed' THEN CAST(:at AS timestamptz) END, CAST(:at AS timestamptz)
           FROM generate_series(1, :count)`,
        { replacements: { status, at: at.toISOString(), count } },
      );
    const day = 24 * 3600 * 1000;
    await finish('completed', new Date(thisMonth.getTime() + 60_000), 3);
    await finish('failed', new Date(thisMonth.getTime() + 120_000), 1);
    await finish('completed', new Date(lastMonth.getTime() + day), 1);
    await finish('failed', new Date(thisMonth.getTime() - 60_000), 2);
    await finish('failed', new Date(lastMonth.getTime() - day), 5);
    const after = await dashboardMetrics({ now });
    const [currentAfter, previousAfter] = [await rate(thisMonth, null), await rate(lastMonth, thisMonth)];
    expect(currentAfter).not.toBeNull();
    expect(previousAfter).not.toBeNull();
    expect(after.notes.automationSuccessChange).toBe(Math.round(10 * (currentAfter! - previousAfter!)) / 10);
    const completed = await count(`SELECT count(*)::int AS n FROM workflow_instances WHERE status = 'completed'`);
    const failed = await count(`SELECT count(*)::int AS n FROM workflow_instances WHERE status = 'failed'`);
    expect(after.automationSuccess).toBe(Math.round((1000 * completed) / (completed + failed)) / 10);
  });

  it('GET /api/dashboard/metrics answers exactly the spec fields plus notes', async () => {
    const response = await metricsLoader({ request: getRequest('/api/dashboard/metrics', cookie), params: {}, context: {} });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(Object.keys(body).sort()).toEqual(
      ['activeClients', 'automationSuccess', 'availableForFinancing', 'historicalData', 'invoiceStats', 'invoicesInProcess', 'notes', 'riskStats'].sort(),
    );
    expect(body).toEqual(JSON.parse(JSON.stringify(await dashboardMetrics({ now: new Date() }))));
    const anonymous = await metricsLoader({ request: getRequest('/api/dashboard/metrics'), params: {}, context: {} }).catch((error: Response) => error);
    expect((anonymous as Response).status).toBe(401);
  });
});

describe('the dashboard page', () => {
  it('the period links change the chart data length (7, 30, 90; 30 by default)', async () => {
    for (const [period, days] of [
      ['7d', 7],
      ['30d', 30],
      ['90d', 90],
      ['', 30],
      ['bogus', 30],
    ] as const) {
      const response = await indexLoader({ request: getRequest(`/?period=${period}`, cookie), params: {}, context: {} });
      const body = (await response.json()) as { dashboard: { period: string; metrics: { data: { historicalData: unknown[] } } } };
      expect(body.dashboard.period).toBe(period === '' || period === 'bogus' ? '30d' : period);
      expect(body.dashboard.metrics.data.historicalData).toHaveLength(days);
    }
    const seven = await loadDashboard({ userId, period: '7d', now });
    const ninety = await loadDashboard({ userId, period: '90d', now });
    expect(seven.metrics.ok && ninety.metrics.ok).toBe(true);
    if (seven.metrics.ok && ninety.metrics.ok) expect(seven.metrics.data.historicalData).toEqual(ninety.metrics.data.historicalData.slice(-7));
  });

  it('a visitor gets no dashboard data', async () => {
    const response = await indexLoader({ request: getRequest('/'), params: {}, context: {} });
    expect(await response.json()).toEqual({ user: null, dashboard: null });
  });

  it('the risk, workflow, integration, activity and task sections equal their SQL', async () => {
    const admin = (await selectOne<{ id: string }>(
      `SELECT assigned_to AS id FROM tasks WHERE assigned_to IS NOT NULL AND status IN ('pending', 'in_progress')
        GROUP BY assigned_to ORDER BY count(*) DESC LIMIT 1`,
    ))!;
    const data = await loadDashboard({ userId: admin.id, period: '30d', now });
    if (!data.metrics.ok || !data.workflows.ok || !data.integrations.ok || !data.activities.ok || !data.tasks.ok) throw new Error('a section failed');

    const risk = await selectOne<{ low: number; medium: number; total: number }>(
      `SELECT count(*) FILTER (WHERE risk_category = 'low')::int AS low, count(*) FILTER (WHERE risk_category = 'medium')::int AS medium,
              count(risk_category)::int AS total FROM clients`,
    );
    expect(automaticAssessmentPercent(data.metrics.data.riskStats)).toBe(risk!.total ? Math.round((100 * (risk!.low + risk!.medium)) / risk!.total) : 87);
    expect(automaticAssessmentPercent({ low: 0, medium: 0, high: 0 })).toBe(87);
    expect(processingTimePercent(0)).toBe(100);
    expect(processingTimePercent(720)).toBe(50);
    expect(processingTimePercent(5000)).toBe(0);

    expect(data.workflows.data).toEqual(await workflowMetrics());
    expect(data.workflows.data.totalWorkflows).toBe(await count('SELECT count(*)::int AS n FROM workflow_instances'));

    const integrations = await selectRows<{ type: string; status: string; error_count: number }>('SELECT type, status, error_count FROM integrations ORDER BY name, type');
    expect(data.integrations.data.map((row) => ({ type: row.type, status: row.status, error_count: row.errorCount }))).toEqual(integrations);

    const latest = await selectRows<{ id: string }>('SELECT id FROM activity_logs ORDER BY created_at DESC, id DESC LIMIT 10');
    expect(data.activities.data.map((activity) => activity.id)).toEqual(latest.map((row) => row.id));

    expect(data.tasks.data.total).toBe(await count(`SELECT count(*)::int AS n FROM tasks WHERE assigned_to = :id AND status IN ('pending', 'in_progress')`, { id: admin.id }));
    expect(data.tasks.data).toEqual(await pendingTasksOf(admin.id, { limit: 10 }));
  });
});
