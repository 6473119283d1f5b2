import fs from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import type PgBoss from 'pg-boss';
import { EnvError, getEnv } from '../app/env.server.ts';
import { closeSequelize } from '../db/connection.ts';
import { createBoss, ensureQueues } from '../app/jobs/boss.server.ts';
import type { JobContext, JobModule, WorkerIdentity } from './jobs/define.ts';
import { removeHeartbeat, writeHeartbeat } from './jobs/heartbeat.ts';
import { jobs } from './jobs/index.ts';
import { consoleLogger, errorMessage, type Logger } from './log.ts';
import { parsePayload, queues, type QueueDefinition } from '../app/jobs/queues.server.ts';

/** How often the worker refreshes its heartbeat row between scheduled beats. */
export const HEARTBEAT_INTERVAL_MS = 15_000;
/** How long a stop waits for running jobs before pg-boss fails them (they are retried elsewhere). */
export const STOP_TIMEOUT_MS = 20_000;

export type StartWorkerOptions = {
  databaseUrl: string;
  log?: Logger;
  heartbeatIntervalMs?: number;
  stopTimeoutMs?: number;
};

export type RunningWorker = {
  workerId: string;
  /** Stops taking jobs, waits for running ones, removes this worker's heartbeat row. Idempotent. */
  stop(): Promise<void>;
};

/**
 * Runs the worker in this process: pg-boss with every declared queue and
 * schedule, one handler per job module, and the heartbeat row. The entry below
 * wraps it with env checks and signals; tests call it directly.
 */
export async function startWorker({
  databaseUrl,
  log = consoleLogger,
  heartbeatIntervalMs = HEARTBEAT_INTERVAL_MS,
  stopTimeoutMs = STOP_TIMEOUT_MS,
}: StartWorkerOptions): Promise<RunningWorker> {
  // Job handlers reach the database through getSequelize(), which reads DATABASE_URL;
  // a different URL here would split pg-boss and the jobs across two databases.
  process.env.DATABASE_URL ??= databaseUrl;
  if (process.env.DATABASE_URL !== databaseUrl) {
    throw new Error('startWorker: databaseUrl differs from DATABASE_URL, which job handlers use');
  }

  const startedAt = new Date();
  const worker: WorkerIdentity = {
    workerId: `${os.hostname()}:${process.pid}:${startedAt.getTime()}`,
    hostname: os.hostname(),
    pid: process.pid,
    startedAt,
  };
  const context: JobContext = { worker, log };
  const boss = createBoss(databaseUrl, { role: 'worker', log });

  try {
    await boss.start();
    await ensureQueues(boss);
    for (const job of jobs) await register(boss, job, context);
    await writeHeartbeat(worker);
  } catch (error) {
    await boss.stop({ graceful: false }).catch(() => {});
    throw error;
  }
  let beat: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    beat = writeHeartbeat(worker).catch((error: unknown) => log.error(`heartbeat failed: ${errorMessage(error)}`));
  }, heartbeatIntervalMs);
  // pg-boss's own timers keep the process alive while it runs; this one must not hold it open after stop.
  timer.unref();

  log.info(`worker ready (${worker.workerId}; queues: ${jobs.map((job) => job.queue).join(', ')})`);

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      clearInterval(timer);
      // A beat still in flight would re-insert the row after we delete it.
      await beat;
      try {
        await boss.stop({ graceful: true, timeout: stopTimeoutMs, wait: true });
      } finally {
        await removeHeartbeat(worker);
      }
    })());

  return { workerId: worker.workerId, stop };
}

async function register(boss: PgBoss, job: JobModule, context: JobContext) {
  const work = (queues as readonly QueueDefinition[]).find((definition) => definition.name === job.queue)?.work;
  // includeMetadata: a handler that must know whether this delivery is the last one reads the job's
  // retryCount/retryLimit from pg-boss's own job metadata instead of querying its tables.
  const options = { batchSize: work?.batchSize ?? 1, pollingIntervalSeconds: work?.pollingIntervalSeconds ?? 2, includeMetadata: true as const };
  await boss.work(job.queue, options, async (batch) => {
    try {
      const checked = batch.map((item) => ({ ...item, data: parsePayload(job.queue, item.data) }));
      await job.handler(checked, context);
    } catch (error) {
      context.log.error(`job ${job.queue} ${batch.map((item) => item.id).join(',')} failed: ${errorMessage(error)}`);
      // Re-thrown so pg-boss marks the job failed and retries it per the queue's options.
      throw error;
    }
  });
}

/** `tsx worker/index.ts`: the worker process. */
async function main() {
  let databaseUrl: string;
  try {
    const env = getEnv();
    if (!env.DATABASE_URL) {
      throw new EnvError('Invalid environment: DATABASE_URL is required by the worker (`npm start` sets it)');
    }
    databaseUrl = env.DATABASE_URL;
  } catch (error) {
    if (!(error instanceof EnvError)) throw error;
    console.error(error.message);
    process.exit(1);
  }

  const log = consoleLogger;
  let worker: RunningWorker;
  try {
    worker = await startWorker({ databaseUrl, log });
  } catch (error) {
    log.error(`worker failed to start: ${errorMessage(error)}`);
    await closeSequelize().catch(() => {});
    process.exit(1);
  }

  let stopRequested = false;
  const shutdown = async (signal: NodeJS.Signals) => {
    if (stopRequested) {
      // A second Ctrl-C means "now": running jobs are left to pg-boss's expiry and retried.
      log.error(`${signal} again: exiting without waiting for running jobs`);
      process.exit(1);
    }
    stopRequested = true;
    log.info(`${signal}: stopping worker`);
    try {
      await worker.stop();
      await closeSequelize();
      log.info('worker stopped');
      process.exit(0);
    } catch (error) {
      log.error(`worker did not stop cleanly: ${errorMessage(error)}`);
      process.exit(1);
    }
  };
  process.on('SIGTERM', (signal) => void shutdown(signal));
  process.on('SIGINT', (signal) => void shutdown(signal));
}

// Run only as the entry point, so tests can import startWorker without starting a process.
const entry = process.argv[1] ? fs.realpathSync(process.argv[1]) : undefined;
if (entry === fs.realpathSync(fileURLToPath(import.meta.url))) {
  await main();
}
