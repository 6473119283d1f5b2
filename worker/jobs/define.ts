import type PgBoss from 'pg-boss';
import type { Logger } from '../log.ts';
import type { QueueName, QueuePayload } from '../../app/jobs/queues.server.ts';

/** Which worker process runs a job: the key of its worker_heartbeats row. */
export type WorkerIdentity = {
  workerId: string;
  hostname: string;
  pid: number;
  startedAt: Date;
};

export type JobContext = {
  worker: WorkerIdentity;
  log: Logger;
};

/**
 * One module per job: the queue it works and its handler. The handler gets
 * pg-boss's batch (an array, even with batchSize 1) with `data` already checked
 * against the queue's payload schema, and each job's metadata (retryCount,
 * retryLimit: whether this delivery is the last). It must throw on failure, never swallow:
 * a handler that returns marks the job done and pg-boss will not retry it.
 * Handlers must be idempotent, because a retried or expired job runs again.
 */
export type JobModule<Name extends QueueName = QueueName> = {
  queue: Name;
  // Method syntax on purpose: it lets the registry hold modules of different queues in one list.
  handler(jobs: PgBoss.JobWithMetadata<QueuePayload<Name>>[], context: JobContext): Promise<void>;
};

export type JobHandler<Name extends QueueName> = JobModule<Name>['handler'];
