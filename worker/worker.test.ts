import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { getSequelize } from '../db/connection.ts';
import { createBoss, ensureQueues, sendJob, stopSender } from '../app/jobs/boss.server.ts';
import { startWorker } from './index.ts';
import { jobs } from './jobs/index.ts';
import type { Logger } from './log.ts';
import { parsePayload, queues } from '../app/jobs/queues.server.ts';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

afterAll(async () => {
  await stopSender();
});

function collectingLogger() {
  const lines = { info: [] as string[], error: [] as string[] };
  const log: Logger = { info: (line) => lines.info.push(line), error: (line) => lines.error.push(line) };
  return { log, lines };
}

async function query<T>(sql: string, bind: unknown[] = []): Promise<T[]> {
  const [rows] = await getSequelize().query(sql, { bind });
  return rows as T[];
}

type HeartbeatRow = { worker_id: string; hostname: string; pid: number; started_at: Date; last_beat_at: Date };

async function heartbeatOf(column: 'worker_id' | 'pid', value: string | number) {
  const rows = await query<HeartbeatRow>(`SELECT * FROM worker_heartbeats WHERE ${column} = $1`, [value]);
  return rows[0];
}

async function waitFor<T>(probe: () => Promise<T | undefined | false>, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('declarations', () => {
  it('gives every declared queue exactly one job module', () => {
    const declared = queues.map((queue) => queue.name).sort();
    expect(jobs.map((job) => job.queue).sort()).toEqual(declared);
  });

  it('passes null for queues without a payload schema', () => {
    expect(parsePayload('heartbeat', undefined)).toBeNull();
  });
});

// Every declared recurring job, as pg-boss stores its schedule.
const scheduled = queues
  .flatMap((queue) => ('schedule' in queue && queue.schedule ? [{ name: queue.name, cron: queue.schedule.cron }] : []))
  .sort((a, b) => a.name.localeCompare(b.name));

describe('ensureQueues', () => {
  // A database pg-boss has not seen yet, as on a first deploy: no queues, no schedules, whatever
  // other tests of the file (a started worker schedules its jobs) left behind.
  beforeEach(async () => {
    await query('DROP SCHEMA IF EXISTS pgboss CASCADE');
  });

  it('creates queues idempotently and, for the worker, replaces stale schedules', async () => {
    const { log, lines } = collectingLogger();
    const boss = createBoss(process.env.DATABASE_URL!, { role: 'web', log });
    await boss.start();
    try {
      await ensureQueues(boss);
      await ensureQueues(boss);
      expect(await boss.getQueue('heartbeat')).toMatchObject({ retryLimit: 1, expireInSeconds: 30 });
      expect(await boss.getSchedules()).toEqual([]); // the web role never schedules

      await boss.createQueue('retired-job');
      await boss.schedule('retired-job', '0 3 * * *');
      await ensureQueues(boss, { role: 'worker' });
      expect((await boss.getSchedules()).map((schedule) => schedule.name).sort()).toEqual(scheduled.map((queue) => queue.name));
    } finally {
      await boss.stop({ graceful: false });
    }
    expect(lines.error).toEqual([]);
  });
});

describe('worker in process', () => {
  it('beats, works jobs sent through pg-boss, and removes its row on stop', async () => {
    const { log, lines } = collectingLogger();
    // A long timer interval, so only the job can advance the row during the test.
    const worker = await startWorker({ databaseUrl: process.env.DATABASE_URL!, log, heartbeatIntervalMs: 3_600_000 });
    try {
      expect(lines.info.some((line) => line.startsWith('worker ready'))).toBe(true);

      const row = await heartbeatOf('worker_id', worker.workerId);
      expect(row).toMatchObject({ pid: process.pid });
      expect(worker.workerId).toBe(`${row.hostname}:${process.pid}:${row.started_at.getTime()}`);

      const [queue] = await query<Record<string, unknown>>(`SELECT retry_limit, retry_delay, retry_backoff, expire_seconds FROM pgboss.queue WHERE name = 'heartbeat'`);
      expect(queue).toEqual({ retry_limit: 1, retry_delay: 5, retry_backoff: false, expire_seconds: 30 });
      expect(await query(`SELECT name, cron FROM pgboss.schedule ORDER BY name`)).toEqual(scheduled);

      const jobId = await sendJob('heartbeat', null);
      expect(jobId).toEqual(expect.any(String));
      await waitFor(
        async () => (await query<{ state: string }>(`SELECT state FROM pgboss.job WHERE id = $1`, [jobId]))[0]?.state === 'completed',
        15_000,
        'the heartbeat job to complete',
      );
      const after = await heartbeatOf('worker_id', worker.workerId);
      expect(after.last_beat_at.getTime()).toBeGreaterThan(row.last_beat_at.getTime());
    } finally {
      await worker.stop();
    }
    expect(await heartbeatOf('worker_id', worker.workerId)).toBeUndefined();
    await worker.stop(); // a second stop is harmless
    expect(lines.error).toEqual([]);
  });
});

describe('worker process', () => {
  // Only the variables given here reach the child, so the test controls its whole environment.
  function runWorker(env: Record<string, string | undefined>) {
    const child = spawn(process.execPath, ['--import', 'tsx', 'worker/index.ts'], {
      cwd: repoRoot,
      env: env as NodeJS.ProcessEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const output = { stdout: '', stderr: '' };
    child.stdout.on('data', (chunk) => (output.stdout += chunk));
    child.stderr.on('data', (chunk) => (output.stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    return { child, output, exited };
  }

  it('starts, says it is ready, and exits 0 on SIGTERM', { timeout: 60_000 }, async () => {
    const { child, output, exited } = runWorker({ DATABASE_URL: process.env.DATABASE_URL, PATH: process.env.PATH });
    try {
      await waitFor(async () => output.stdout.includes('worker ready'), 20_000, `'worker ready' (stderr: ${output.stderr})`);
      expect(await heartbeatOf('pid', child.pid!)).toBeDefined();

      const sentAt = Date.now();
      child.kill('SIGTERM');
      const code = await Promise.race([exited, new Promise((resolve) => setTimeout(() => resolve('timeout'), 25_000))]);
      expect(code).toBe(0);
      expect(Date.now() - sentAt).toBeLessThan(25_000);
      expect(output.stderr).toBe('');
      expect(await heartbeatOf('pid', child.pid!)).toBeUndefined();
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });

  it('exits 1 with one clear line when DATABASE_URL is missing', { timeout: 30_000 }, async () => {
    const { output, exited } = runWorker({});
    expect(await exited).toBe(1);
    const lines = output.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^Invalid environment: DATABASE_URL is required/);
    expect(output.stdout).toBe('');
  });
});
