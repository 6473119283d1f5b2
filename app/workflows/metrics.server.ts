import { selectOne } from '../db.server.ts';

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

export async function workflowMetrics(): Promise<WorkflowMetrics> {
  const row = await selectOne<{ total: number; active: number; rate: string | null; minutes: string | null }>(
    `SELECT count(*)::int AS total,
            count(*) FILTER (WHERE status = 'running')::int AS active,
            round(100.0 * count(*) FILTER (WHERE status = 'completed') / nullif(count(*), 0), 1) AS rate,
            round(CAST(avg(extract(epoch FROM completed_at - started_at) / 60) FILTER (WHERE status = 'completed') AS numeric), 1) AS minutes
       FROM workflow_instances`,
  );
  return {
    totalWorkflows: row?.total ?? 0,
    activeWorkflows: row?.active ?? 0,
    completionRate: Number(row?.rate ?? 0),
    averageProcessingTime: Number(row?.minutes ?? 0),
  };
}
