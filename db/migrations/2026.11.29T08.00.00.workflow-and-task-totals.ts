import type { Migration } from '../migrate.ts';
import { createDeltaTotals, dropDeltaTotals, type DeltaTotals } from '../delta-totals.ts';

/**
 * Two figures every dashboard view or every page read by counting rows that
 * only grow, kept by the database instead (db/delta-totals.ts), like the
 * invoice status totals of 2026.11.22T12.00.00.invoice-summaries:
 *
 * - `workflow_instance_deltas`, per status: how many instances, and the
 *   seconds from start to completion summed over them (exact: `extract(epoch
 *   …)` is numeric; only a completed instance has `completed_at`, by the
 *   table's check). The dashboard's and GET /api/workflow-metrics' figures
 *   (app/workflows/metrics.server.ts) counted every instance ever started.
 * - `open_task_deltas`, per assignee: their open tasks (pending or in
 *   progress, app/tasks/open-count.server.ts's OPEN_TASKS_OF_USER). The bell
 *   in every page's frame counted them on every page: 8,000 index entries,
 *   about a millisecond of PostgreSQL per page, for the bench book's busiest
 *   user. A user left without open tasks has rows summing to 0, which the
 *   next fold drops.
 */

const TOTALS: DeltaTotals[] = [
  {
    source: 'workflow_instances',
    deltas: 'workflow_instance_deltas',
    name: 'workflow_instance_totals',
    columns: 'status text NOT NULL, instances bigint NOT NULL, completed_seconds numeric NOT NULL',
    key: 'status',
    figures: ['instances', 'completed_seconds'],
    contribution: (rows, sign) => `SELECT status, ${sign} AS instances, ${sign} * coalesce(extract(epoch FROM completed_at - started_at), 0) AS completed_seconds FROM ${rows}`,
  },
  {
    source: 'tasks',
    deltas: 'open_task_deltas',
    name: 'open_task_counts',
    columns: 'user_id uuid NOT NULL, tasks bigint NOT NULL',
    key: 'user_id',
    figures: ['tasks'],
    contribution: (rows, sign) => `SELECT assigned_to AS user_id, ${sign} AS tasks FROM ${rows} WHERE assigned_to IS NOT NULL AND status IN ('pending', 'in_progress')`,
  },
];

export const up: Migration = async ({ context: db }) => {
  await db.query(TOTALS.map(createDeltaTotals).join('\n'));
};

export const down: Migration = async ({ context: db }) => {
  await db.query(TOTALS.map(dropDeltaTotals).join('\n'));
};
