import type PgBoss from 'pg-boss';
import { runBackup } from '../../app/backups/backups.server.ts';
import type { JobContext } from './define.ts';
import type { QueuePayload } from '../../app/jobs/queues.server.ts';

/** A database backup asked for in Settings: writes the file and completes (or fails) its row (app/backups/backups.server.ts). */
export const queue = 'backup' as const;

// Typed as unknown data like email-send: the worker has already checked each job against the queue's schema.
export const handler = async (jobs: PgBoss.Job<unknown>[], { log }: JobContext): Promise<void> => {
  for (const job of jobs) await runBackup((job.data as QueuePayload<typeof queue>).backupId, (line) => log.info(line));
};
