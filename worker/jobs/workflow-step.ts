import type PgBoss from 'pg-boss';
import type { QueuePayload } from '../../app/jobs/queues.server.ts';
import { runWorkflowStep } from '../../app/workflows/runner.server.ts';

/**
 * One automated step of a workflow instance (app/workflows/runner.server.ts
 * does the work, idempotently). A failure is re-thrown so pg-boss retries it;
 * the runner needs to know whether this delivery is the last one, which the
 * job's metadata tells (retryCount counts earlier deliveries, including one
 * lost with a killed worker and expired).
 */
export const queue = 'workflow-step' as const;

// Typed as unknown data because the job registry's JobModule type only fits queues without a payload;
// the worker has already checked each job's data against the queue's schema.
export const handler = async (jobs: PgBoss.JobWithMetadata<unknown>[]): Promise<void> => {
  for (const job of jobs) {
    await runWorkflowStep(job.data as QueuePayload<typeof queue>, { retryCount: job.retryCount, retryLimit: job.retryLimit });
  }
};
