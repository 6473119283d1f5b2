import { selectOne } from '../../app/db.server.ts';
import { runWorkflowStep } from '../../app/workflows/engine.server.ts';
import type PgBoss from 'pg-boss';
import { getQueueDefinition, type QueuePayload } from '../queues.ts';

/**
 * One automated step of a workflow instance (app/workflows/engine.server.ts
 * does the work, idempotently). A failure is re-thrown so pg-boss retries it;
 * the engine needs to know whether this delivery is the last one, which
 * pg-boss keeps in the job row (its retry_count counts earlier deliveries,
 * including one lost with a killed worker and expired).
 */
export const queue = 'workflow-step' as const;

// Typed as unknown data because the job registry's JobModule type only fits queues without a payload;
// the worker has already checked each job's data against the queue's schema.
export const handler = async (jobs: PgBoss.Job<unknown>[]): Promise<void> => {
  const { retryLimit } = getQueueDefinition(queue).options;
  for (const job of jobs) {
    const row = await selectOne<{ retry_count: number; retry_limit: number }>(
      `SELECT retry_count, retry_limit FROM pgboss.job WHERE name = :queue AND id = :id`,
      { queue, id: job.id },
    );
    await runWorkflowStep(job.data as QueuePayload<typeof queue>, { retryCount: row?.retry_count ?? 0, retryLimit: row?.retry_limit ?? retryLimit });
  }
};
