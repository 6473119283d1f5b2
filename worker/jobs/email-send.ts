import type PgBoss from 'pg-boss';
import { selectOne } from '../../app/db.server.ts';
import { processEmailJob } from '../../app/email/send.server.ts';
import { getQueueDefinition, type QueuePayload } from '../queues.ts';

/**
 * One email (app/email/send.server.ts does the work, idempotently on its log
 * row). A send failure is re-thrown so pg-boss retries with backoff; the last
 * delivery (pg-boss's retry_count at its retry_limit) marks the log failed.
 */
export const queue = 'email-send' as const;

// Typed as unknown data like workflow-step: the worker has already checked each job against the queue's schema.
export const handler = async (jobs: PgBoss.Job<unknown>[]): Promise<void> => {
  const { retryLimit } = getQueueDefinition(queue).options;
  for (const job of jobs) {
    const row = await selectOne<{ retry_count: number; retry_limit: number }>(
      `SELECT retry_count, retry_limit FROM pgboss.job WHERE name = :queue AND id = :id`,
      { queue, id: job.id },
    );
    await processEmailJob(job.data as QueuePayload<typeof queue>, { retryCount: row?.retry_count ?? 0, retryLimit: row?.retry_limit ?? retryLimit });
  }
};
