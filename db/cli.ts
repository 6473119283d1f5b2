import { EnvError, parseEnv } from '../app/env.server.ts';
import { createSequelize } from './connection.ts';
import { startEmbeddedDatabase } from './embedded.ts';
import { migrateDown } from './migrate.ts';
import { prepareDatabase } from './prepare.ts';

/**
 * `npm run migrate` (migrate, first admin, reference data, demo seed — the docker compose
 * `migrate` service) and `npm run migrate:down` (revert the last migration).
 * Uses DATABASE_URL, or the embedded database in DATA_DIR when it is unset.
 */
const command = process.argv[2];
const log = (line: string) => console.log(`[finflow] ${line}`);

async function main() {
  const env = parseEnv();
  const embedded = env.DATABASE_URL ? undefined : await startEmbeddedDatabase({ dataDir: env.DATA_DIR, port: env.EMBEDDED_PG_PORT, notice: log });
  const url = env.DATABASE_URL ?? embedded!.url;
  try {
    if (command === 'migrate') {
      await prepareDatabase(url, env, log);
    } else if (command === 'down') {
      const sequelize = createSequelize(url);
      await migrateDown(sequelize, {}, log).finally(() => sequelize.close());
    } else {
      throw new Error(`unknown command ${JSON.stringify(command)}; use migrate or down`);
    }
  } finally {
    await embedded?.stop();
  }
}

main().catch((error) => {
  console.error(error instanceof EnvError ? error.message : `[finflow] ${error instanceof Error ? error.message : error}`);
  process.exit(1);
});
