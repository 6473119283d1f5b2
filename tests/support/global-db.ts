import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { createSequelize } from '../../db/connection.ts';
import { startEmbeddedDatabase } from '../../db/embedded.ts';
import { migrateUp } from '../../db/migrate.ts';
import { freePort } from './free-port.ts';
import { skipDiskFlushes } from './throwaway-database.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseServerUrl: string;
  }
}

export const TEMPLATE_DATABASE = 'finflow_template';

/** The run's server, kept on the main process's global object: each project of vitest.config.ts loads this module apart. */
const run = globalThis as { finflowTestDatabase?: { started: Promise<{ url: string; stop(): Promise<void> }>; projects: number } };

/**
 * Starts one embedded PostgreSQL for the whole run and migrates a template
 * database; each test file then gets its own copy (database-per-file.ts).
 * Both projects of the run (vitest.config.ts) use the same server; the last
 * to finish stops it.
 */
export default async function setup(project: TestProject) {
  run.finflowTestDatabase ??= { started: startServer(), projects: 0 };
  const shared = run.finflowTestDatabase;
  shared.projects += 1;
  const server = await shared.started;
  project.provide('databaseServerUrl', server.url.replace(/\/[^/]+$/, ''));
  return async () => {
    shared.projects -= 1;
    if (shared.projects > 0) return;
    run.finflowTestDatabase = undefined;
    await server.stop();
  };
}

async function startServer() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'finflow-test-'));
  const server = await startEmbeddedDatabase({
    dataDir,
    port: await freePort(),
    database: TEMPLATE_DATABASE,
    persistent: false,
  });
  await skipDiskFlushes(server.url);
  const sequelize = createSequelize(server.url);
  await migrateUp(sequelize);
  await sequelize.close();
  return {
    url: server.url,
    stop: async () => {
      await server.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
