import { execute, selectOne } from '../db.server.ts';

/** GET /api/workflow-metrics (docs/domain-model.md Workflow metrics), computed in SQL. */
export interface WorkflowMetrics {
  totalWorkflows: number;
  /** Instances running now (paused ones wait for a person, so they are not counted as active). */
  activeWorkflows: number;
  /** Completed instances as a percent of all, one decimal. */
  completionRate: number;
  /** Mean minutes from start to completion of completed instances, one decimal; 0 when none completed. */
  averageProcessingTime: number;
}

/**
 * From the totals the database keeps per status (db/migrations/2026.11.29T08.00.00.workflow-and-task-totals.ts): every
 * dashboard view read every instance ever started before.
 */
export async function workflowMetrics(): Promise<WorkflowMetrics> {
  const row = await selectOne<{ total: number; active: number; rate: string | null; minutes: string | null }>(
    `WITH totals AS (
       SELECT status, sum(instances) AS instances, sum(completed_seconds) AS seconds FROM workflow_instance_deltas GROUP BY status)
     SELECT coalesce(sum(instances), 0)::int AS total,
            coalesce(sum(instances) FILTER (WHERE status = 'running'), 0)::int AS active,
            round(100.0 * coalesce(sum(instances) FILTER (WHERE status = 'completed'), 0) / nullif(sum(instances), 0), 1) AS rate,
            round(sum(seconds) FILTER (WHERE status = 'completed') / nullif(sum(instances) FILTER (WHERE status = 'completed'), 0) / 60, 1) AS minutes
       FROM totals`,
  );
  return {
    totalWorkflows: row?.total ?? 0,
    activeWorkflows: row?.active ?? 0,
    completionRate: Number(row?.rate ?? 0),
    averageProcessingTime: Number(row?.minutes ?? 0),
  };
}

/** Folds the instance totals' deltas into one row per status, and the finished ones' into one per month (the hourly housekeeping), so the sums stay short. */
export async function compactWorkflowTotals(): Promise<void> {
  await execute('SELECT compact_workflow_instance_totals()');
  await execute('SELECT compact_workflow_finish_month_totals()');
}
