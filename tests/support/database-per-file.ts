import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, inject, vi } from 'vitest';

/**
 * Each test file works in its own database, copied from the migrated
 * template, so files run in parallel without seeing each other's rows.
 *
 * Most files share their worker process (vitest.config.ts), so that the
 * packages load once per worker. What a file could leave to the next is
 * reset: each file evaluates the application's modules afresh (their caches:
 * the environment, the pool, the mailer …) and starts with real timers, and
 * the environment the file changed is put back after it.
 */
const startEnv = { ...process.env };
vi.resetModules();
vi.useRealTimers();
// The web process's lock-wait bound lives on the process (db/connection.ts): a file that set it (server.ts's createApp) leaves none.
const { boundLockWaits } = await import('../../db/connection.ts');
boundLockWaits(undefined);

const serverUrl = inject('databaseServerUrl');
const name = `test_${randomUUID().replace(/-/g, '')}`;

const admin = new pg.Client(`${serverUrl}/postgres`);
await admin.connect();
await admin.query(`CREATE DATABASE ${name} TEMPLATE finflow_template`);
await admin.end();

process.env.DATABASE_URL = `${serverUrl}/${name}`;
// Files the code under test stores (objects, outbox) go to a folder of this file's own.
const ownDataDir = process.env.DATA_DIR ? null : path.join(os.tmpdir(), `finflow-test-data-${name}`);
if (ownDataDir) process.env.DATA_DIR = ownDataDir;
process.env.NODE_ENV = 'test';

afterAll(async () => {
  // A job sent after a commit (a financing's e-invoice, a verified invoice's email) starts pg-boss's sender: close it before the database goes.
  const { stopSender } = await import('../../app/jobs/boss.server.ts');
  await stopSender();
  const { closeSequelize } = await import('../../db/connection.ts');
  await closeSequelize();
  const client = new pg.Client(`${serverUrl}/postgres`);
  await client.connect();
  await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await client.end();
  if (ownDataDir) fs.rmSync(ownDataDir, { recursive: true, force: true });
  for (const key of Object.keys(process.env)) if (!(key in startEnv)) delete process.env[key];
  Object.assign(process.env, startEnv);
});
