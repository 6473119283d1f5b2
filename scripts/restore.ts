import fs from 'node:fs';
import path from 'node:path';
import { RestoreError, restoreBackup } from '../app/backups/restore.server.ts';
import { EnvError, parseEnv } from '../app/env.server.ts';
import { startEmbeddedDatabase } from '../db/embedded.ts';

/**
 * `npm run restore -- <backup file>`: loads a backup made in Settings into an
 * EMPTY database at the same migration level (app/backups/restore.server.ts):
 * DATABASE_URL's, or the embedded one in DATA_DIR when it is unset. Run it
 * before the first `npm start` on that database; FinFlow must not be running.
 */
const log = (line: string) => console.log(`[finflow] ${line}`);

async function main() {
  const file = process.argv[2];
  if (!file || process.argv.length > 3) {
    console.error('Usage: npm run restore -- <backup file>   (into the empty database of DATABASE_URL, or of DATA_DIR when unset)');
    process.exit(2);
  }
  if (!fs.existsSync(file) || !fs.statSync(file).isFile()) {
    console.error(`No such file: ${path.resolve(file)}`);
    process.exit(1);
  }
  const env = parseEnv();
  const embedded = env.DATABASE_URL ? undefined : await startEmbeddedDatabase({ dataDir: env.DATA_DIR, port: env.EMBEDDED_PG_PORT, notice: log });
  try {
    log(`restoring ${path.resolve(file)} into ${env.DATABASE_URL ? 'DATABASE_URL' : `the embedded database in ${env.DATA_DIR}`}`);
    await restoreBackup({ databaseUrl: env.DATABASE_URL ?? embedded!.url, file: path.resolve(file), log });
    log('done; start FinFlow with `npm start`. Document files are not in a database backup: copy DATA_DIR/objects over as well.');
  } finally {
    await embedded?.stop();
  }
}

main().catch((error) => {
  console.error(error instanceof EnvError || error instanceof RestoreError ? error.message : `[finflow] restore failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
