import type PgBoss from 'pg-boss';
import { processEmailJob } from '../../app/email/send.server.ts';
import type { QueuePayload } from '../../app/jobs/queues.server.ts';

/**
 * One email (app/email/send.server.ts does the work, idempotently on its log
 * row). A send failure is re-thrown so pg-boss retries with backoff; the last
 * delivery (the job's retryCount at its retryLimit) marks the log failed.
 */
export const queue = 'email-send' as const;

// Typed as unknown data like workflow-step: the worker has already checked each job against the queue's schema.
export const handler = async (jobs: PgBoss.JobWithMetadata<unknown>[]): Promise<void> => {
  for (const job of jobs) {
    await processEmailJob(job.data as QueuePayload<typeof queue>, { retryCount: job.retryCount, retryLimit: job.retryLimit });
  }
};
