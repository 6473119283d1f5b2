import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { createSequelize } from '../../db/connection.ts';
import { startEmbeddedDatabase } from '../../db/embedded.ts';
import { migrateUp } from '../../db/migrate.ts';
import { freePort } from './free-port.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseServerUrl: string;
  }
}

export const TEMPLATE_DATABASE = 'finflow_template';

/**
 * Starts one embedded PostgreSQL for the whole run and migrates a template
 * database; each test file then gets its own copy (database-per-file.ts).
 */
export default async function setup(project: TestProject) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'finflow-test-'));
  const server = await startEmbeddedDatabase({
    dataDir,
    port: await freePort(),
    database: TEMPLATE_DATABASE,
    persistent: false,
  });
  const sequelize = createSequelize(server.url);
  await migrateUp(sequelize);
  await sequelize.close();

  project.provide('databaseServerUrl', server.url.replace(/\/[^/]+$/, ''));
  return async () => {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
}
