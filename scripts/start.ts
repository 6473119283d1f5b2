import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { EnvError, parseEnv } from '../app/env.server.ts';
import { resolveSessionSecret } from '../app/secrets.server.ts';
import { assertPortFree, startEmbeddedDatabase, type EmbeddedDatabase } from '../db/embedded.ts';
import { prepareDatabase } from '../db/prepare.ts';
import { ensureBuild, WEB_ENTRY, WORKER_ENTRY } from './build.ts';
import { nodeFlagsFor } from './node-flags.ts';

/**
 * `npm start` (README.md): validate the environment, build if there is no
 * build, start the embedded PostgreSQL unless DATABASE_URL is set, migrate,
 * create the first admin, seed the demo book, then run the web server and the
 * worker as two child processes and stop everything cleanly on a signal.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const log = (line: string) => console.log(`[finflow] ${line}`);

/** A child that dies after running this long is restarted; sooner means it cannot start at all. */
const MIN_HEALTHY_RUN_MS = 10_000;
const STOP_GRACE_MS = 25_000;

interface Supervised {
  name: string;
  child?: ChildProcess;
  startedAt: number;
}

async function main() {
  let env;
  try {
    env = parseEnv();
  } catch (error) {
    if (error instanceof EnvError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }

  // A set port that is taken stops the start before the (slow) build, with the same one line.
  if (!env.DATABASE_URL && env.EMBEDDED_PG_PORT !== undefined) await assertPortFree(env.EMBEDDED_PG_PORT);
  await ensureBuild(log);
  fs.mkdirSync(env.DATA_DIR, { recursive: true });
  const sessionSecret = resolveSessionSecret(env);

  let database: EmbeddedDatabase | undefined;
  let databaseUrl = env.DATABASE_URL;
  if (!databaseUrl) {
    log(`starting embedded PostgreSQL in ${env.DATA_DIR}`);
    database = await startEmbeddedDatabase({ dataDir: env.DATA_DIR, port: env.EMBEDDED_PG_PORT, notice: log });
    log(`embedded PostgreSQL listening on 127.0.0.1:${database.port}`);
    databaseUrl = database.url;
  }

  let stopping = false;
  const children: Supervised[] = [];

  const stopAll = async (code: number) => {
    if (stopping) return;
    stopping = true;
    log('stopping…');
    await Promise.all(
      children.map(
        ({ child }) =>
          new Promise<void>((resolve) => {
            if (!child || child.exitCode !== null || child.signalCode !== null) return resolve();
            const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
            child.once('exit', () => {
              clearTimeout(timer);
              resolve();
            });
            child.kill('SIGTERM');
          }),
      ),
    );
    await database?.stop();
    log('stopped');
    process.exit(code);
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => void stopAll(0));

  try {
    await prepareDatabase(databaseUrl, env, log);
  } catch (error) {
    console.error(`[finflow] could not prepare the database: ${error instanceof Error ? error.message : String(error)}`);
    await stopAll(1);
    return;
  }

  const childEnv = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    SESSION_SECRET: sessionSecret,
    DATA_DIR: env.DATA_DIR,
    NODE_ENV: process.env.NODE_ENV ?? 'production',
  };

  const launch = (supervised: Supervised, entry: string) => {
    supervised.startedAt = Date.now();
    const child = spawn(process.execPath, [...nodeFlagsFor(entry), path.join(root, entry)], {
      cwd: root,
      env: childEnv,
      stdio: 'inherit',
      // Its own process group: Ctrl+C reaches only this script, which stops web and worker, then the database.
      detached: true,
    });
    supervised.child = child;
    child.on('exit', (code, signal) => {
      if (stopping) return;
      const ranFor = Date.now() - supervised.startedAt;
      if (ranFor < MIN_HEALTHY_RUN_MS) {
        console.error(`[finflow] ${supervised.name} exited during start (${signal ?? `code ${code}`}); stopping`);
        void stopAll(1);
        return;
      }
      // A crash after a healthy run is restarted; jobs in flight are retried by pg-boss.
      log(`${supervised.name} exited (${signal ?? `code ${code}`}); restarting`);
      setTimeout(() => !stopping && launch(supervised, entry), 1_000);
    });
  };

  const web: Supervised = { name: 'web', startedAt: 0 };
  const worker: Supervised = { name: 'worker', startedAt: 0 };
  children.push(web, worker);
  launch(web, WEB_ENTRY);
  launch(worker, WORKER_ENTRY);
  log(`FinFlow is starting on ${env.APP_URL}`);
}

main().catch((error) => {
  console.error(`[finflow] ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
