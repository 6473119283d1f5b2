import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createBoss } from '../../app/jobs/boss.server.ts';

/**
 * The real worker process (`node --import tsx worker/index.ts`) against the
 * calling test file's database, for tests that kill it mid-job.
 */
const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

export interface WorkerProcess {
  child: ChildProcess;
  output: { stdout: string; stderr: string };
  /** SIGKILL, and wait for the process to be gone. */
  kill(): Promise<void>;
}

const started: ChildProcess[] = [];

/** The worker with the engine tests' step handlers (workflow-test-handlers.ts) loaded before it starts. */
const TEST_HANDLERS_MODULE = './tests/support/workflow-test-handlers.ts';

export function startWorkerProcess({ testHandlers = false, env: extraEnv = {} }: { testHandlers?: boolean; env?: Record<string, string> } = {}): WorkerProcess {
  const preload = testHandlers ? ['--import', TEST_HANDLERS_MODULE] : [];
  const child = spawn(process.execPath, ['--import', 'tsx', ...preload, 'worker/index.ts'], {
    cwd: repoRoot,
    env: {
      PATH: process.env.PATH,
      DATABASE_URL: process.env.DATABASE_URL,
      DATA_DIR: process.env.DATA_DIR,
      NODE_ENV: 'test',
      ...extraEnv,
    } as NodeJS.ProcessEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  const output = { stdout: '', stderr: '' };
  child.stdout!.on('data', (chunk) => (output.stdout += chunk));
  child.stderr!.on('data', (chunk) => (output.stderr += chunk));
  return {
    child,
    output,
    kill: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/** Kills every worker process a test started and left running (call in afterEach). */
export function killStartedWorkers(): void {
  for (const child of started.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

export async function waitFor<T>(probe: () => Promise<T | undefined | null | false>, timeoutMs: number, what: string | (() => string)): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${typeof what === 'function' ? what() : what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * pg-boss expires a dead worker's active jobs after their expireInSeconds and
 * retries them; failing them now takes the same path (state retry) without
 * waiting minutes. The retry is then made due at once: the queue's backoff
 * (10–20 s for a first retry) is pg-boss's timing, not what these tests check,
 * and waiting it out was most of their run time.
 */
export async function failJobsOfDeadWorker(queue: string, jobIds: string[]): Promise<void> {
  const boss = createBoss(process.env.DATABASE_URL!, { role: 'web' });
  await boss.start();
  try {
    for (const id of jobIds) await boss.fail(queue, id, { message: 'worker killed' });
  } finally {
    await boss.stop({ graceful: false });
  }
  const client = new pg.Client(process.env.DATABASE_URL);
  await client.connect();
  try {
    await client.query(`UPDATE pgboss.job SET start_after = now() WHERE name = $1 AND id = ANY($2::uuid[]) AND state = 'retry'`, [queue, jobIds]);
  } finally {
    await client.end();
  }
}
