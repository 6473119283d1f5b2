import type PgBoss from 'pg-boss';
import { sendPasswordReset } from '../../app/auth/password-reset.server.ts';
import type { QueuePayload } from '../../app/jobs/queues.server.ts';

/**
 * A forgotten-password request queued by the web (app/auth/password-reset.server.ts):
 * a link and its mail for an active user with that address, nothing otherwise.
 * A send failure is thrown, so pg-boss retries (with a fresh link).
 */
export const queue = 'password-reset' as const;

// Typed as unknown data like email-send: the worker has already checked each job against the queue's schema.
export const handler = async (jobs: PgBoss.Job<unknown>[]): Promise<void> => {
  for (const job of jobs) await sendPasswordReset(job.data as QueuePayload<typeof queue>);
};
