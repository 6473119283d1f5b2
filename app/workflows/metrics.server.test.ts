import { describe, expect, it } from 'vitest';
import { execute, inTransaction, selectOne, selectRows } from '../db.server.ts';
import { compactWorkflowTotals, workflowMetrics } from './metrics.server.ts';
import { insertClient } from '../../tests/factories.ts';

/**
 * The workflow figures come from totals the database keeps
 * (db/migrations/2026.11.29T08.00.00.workflow-and-task-totals.ts). They must equal the
 * figures read from every instance, whatever statements changed the
 * instances: inserts single and in bulk, status changes and completions,
 * deletes, rolled-back transactions, compaction and writers at once.
 */

/** The figures read from the instances themselves, as the dashboard read them before the totals. */
async function readFromTheInstances() {
  const row = await selectOne<{ total: number; active: number; rate: string | null; minutes: string | null }>(
    `SELECT count(*)::int AS total,
            count(*) FILTER (WHERE status = 'running')::int AS active,
            round(100.0 * count(*) FILTER (WHERE status = 'completed') / nullif(count(*), 0), 1) AS rate,
            round(avg(extract(epoch FROM completed_at - started_at)) FILTER (WHERE status = 'completed') / 60, 1) AS minutes
       FROM workflow_instances`,
  );
  return {
    totalWorkflows: row!.total,
    activeWorkflows: row!.active,
    completionRate: Number(row!.rate ?? 0),
    averageProcessingTime: Number(row!.minutes ?? 0),
  };
}

/** The finished instances per Croatian month (the dashboard's month-on-month success), as kept and as counted. */
const finishMonths = (from: 'deltas' | 'instances') =>
  selectRows<{ month: string; completed: number; failed: number }>(
    from === 'deltas'
      ? `SELECT to_char(month, 'YYYY-MM') AS month, sum(completed)::int AS completed, sum(failed)::int AS failed
           FROM workflow_finish_month_deltas GROUP BY month HAVING sum(completed) <> 0 OR sum(failed) <> 0 ORDER BY month`
      : `SELECT to_char(coalesce(completed_at, updated_at) AT TIME ZONE 'Europe/Zagreb', 'YYYY-MM') AS month,
                count(*) FILTER (WHERE status = 'completed')::int AS completed, count(*) FILTER (WHERE status = 'failed')::int AS failed
           FROM workflow_instances WHERE status IN ('completed', 'failed') GROUP BY 1 ORDER BY 1`,
  );

const expectFiguresMatchTheInstances = async () => {
  expect(await workflowMetrics()).toEqual(await readFromTheInstances());
  expect(await finishMonths('deltas')).toEqual(await finishMonths('instances'));
};
const deltaRows = async () => (await selectOne<{ n: number }>('SELECT count(*)::int AS n FROM workflow_instance_deltas'))!.n;

async function definition(): Promise<string> {
  const { rows } = await execute<{ id: string }>(
    `INSERT INTO workflow_definitions (name, type, steps, is_active)
     VALUES ('Uvođenje', 'client_onboarding', '[{"name": "KYC pregled", "type": "manual", "taskType": "kyc_verification"}]'::jsonb, true) RETURNING id`,
  );
  return rows[0].id;
}

/** `count` instances started `startedMinutesAgo` minutes ago, completed `completedMinutesAgo` ago (null: still in `status`). */
const startInstances = (workflowId: string, entityId: string, { count = 1, status = 'running', startedMinutesAgo = 60, completedMinutesAgo = null as number | null } = {}) =>
  execute(
    `INSERT INTO workflow_instances (workflow_id, status, entity_type, entity_id, steps, started_at, completed_at)
     SELECT :workflowId, :status, 'client', :entityId, '[]'::jsonb,
            now() - make_interval(secs => :started * 60 + g * 7.25), now() - make_interval(secs => CAST(:completed AS numeric) * 60 - g * 0.5)
       FROM generate_series(1, :count) g`,
    { workflowId, entityId, status, count, started: startedMinutesAgo, completed: completedMinutesAgo },
  );

describe('workflow metrics', () => {
  it('are zero on an empty book', async () => {
    expect(await workflowMetrics()).toEqual({ totalWorkflows: 0, activeWorkflows: 0, completionRate: 0, averageProcessingTime: 0 });
    await expectFiguresMatchTheInstances();
  });

  it('equal the instances after inserts, completions, status changes, deletes, rollbacks and compaction', async () => {
    const workflowId = await definition();
    const { id: clientId } = await insertClient({ name: 'Tijek d.o.o.' });
    await startInstances(workflowId, clientId);
    await startInstances(workflowId, clientId, { count: 25, status: 'completed', startedMinutesAgo: 300, completedMinutesAgo: 17 });
    await startInstances(workflowId, clientId, { count: 4, status: 'paused' });
    await startInstances(workflowId, clientId, { count: 3, status: 'failed' });
    await startInstances(workflowId, clientId, { count: 9 });
    // Finished in earlier months, which the month-on-month figures keep apart.
    await startInstances(workflowId, clientId, { count: 6, status: 'completed', startedMinutesAgo: 90 * 24 * 60, completedMinutesAgo: 45 * 24 * 60 });
    await execute(
      `INSERT INTO workflow_instances (workflow_id, status, entity_type, entity_id, steps, started_at, updated_at)
       VALUES (:workflowId, 'failed', 'client', :clientId, '[]'::jsonb, now() - interval '80 days', now() - interval '70 days')`,
      { workflowId, clientId },
    );
    expect((await finishMonths('instances')).length).toBeGreaterThan(1);
    await expectFiguresMatchTheInstances();

    // Completions as the engine writes them, one and in bulk; a failure; a restart of a failed one.
    await execute(`UPDATE workflow_instances SET status = 'completed', completed_at = now() WHERE id = (SELECT id FROM workflow_instances WHERE status = 'running' LIMIT 1)`);
    await execute(`UPDATE workflow_instances SET status = 'completed', completed_at = started_at + interval '93.123456 seconds' WHERE status = 'paused'`);
    await execute(`UPDATE workflow_instances SET status = 'failed', last_error = 'SMTP' WHERE id = (SELECT id FROM workflow_instances WHERE status = 'running' LIMIT 1)`);
    await execute(`UPDATE workflow_instances SET status = 'running', last_error = NULL WHERE id = (SELECT id FROM workflow_instances WHERE status = 'failed' LIMIT 1)`);
    await expectFiguresMatchTheInstances();

    // A step that moves on changes nothing the totals count: no row.
    const rows = await deltaRows();
    await execute(`UPDATE workflow_instances SET context = '{"step": 1}'::jsonb, updated_at = now()`);
    expect(await deltaRows()).toBe(rows);

    // A rolled-back transaction leaves the totals as they were.
    const before = await workflowMetrics();
    await expect(
      inTransaction(async (transaction) => {
        await execute(`UPDATE workflow_instances SET status = 'completed', completed_at = now() WHERE status <> 'completed'`, {}, { transaction });
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');
    expect(await workflowMetrics()).toEqual(before);

    await execute(`DELETE FROM workflow_instances WHERE id IN (SELECT id FROM workflow_instances WHERE status = 'completed' ORDER BY started_at LIMIT 5)`);
    await expectFiguresMatchTheInstances();

    expect(await deltaRows()).toBeGreaterThan(4);
    await compactWorkflowTotals();
    expect(await deltaRows()).toBeLessThanOrEqual(4);
    await expectFiguresMatchTheInstances();
    await compactWorkflowTotals();
    await expectFiguresMatchTheInstances();

    // Emptied, the totals are zero again.
    await execute(`TRUNCATE workflow_instances CASCADE`);
    expect(await deltaRows()).toBe(0);
    await expectFiguresMatchTheInstances();
  });

  it('stay exact while transactions write concurrently, with compaction between them', async () => {
    const workflowId = await definition();
    const { id: clientId } = await insertClient({ name: 'Istodobni tijek d.o.o.' });
    await startInstances(workflowId, clientId, { count: 8 });
    await Promise.all([
      ...Array.from({ length: 8 }, (_, n) =>
        inTransaction(async (transaction) => {
          await execute(
            `UPDATE workflow_instances SET status = 'completed', completed_at = now() - make_interval(secs => :n)
              WHERE id = (SELECT id FROM workflow_instances WHERE status = 'running' ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED)`,
            { n },
            { transaction },
          );
        }),
      ),
      compactWorkflowTotals(),
      startInstances(workflowId, clientId, { count: 3 }),
      compactWorkflowTotals(),
    ]);
    await expectFiguresMatchTheInstances();
    expect((await workflowMetrics()).activeWorkflows).toBe(3);
  });
});
