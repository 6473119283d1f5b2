import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSequelize } from '../../db/connection.ts';
import { startEmbeddedDatabase, type EmbeddedDatabase } from '../../db/embedded.ts';
import { migrateUp } from '../../db/migrate.ts';
import { hashPassword } from '../../app/auth/password.server.ts';
import { freePort } from '../support/free-port.ts';

/**
 * The database goes away under a running web process (a restart, a failover):
 * the API answers 503 in its JSON error shape with Retry-After, pages answer a
 * 503 page, the log gets one line per failed request (not a stack), and
 * everything works again once the database is back. And a change that waits
 * for another's lock past the web process's bound is answered busy, changing
 * nothing, and goes through once the other is done. A web process of its own,
 * started as `npm start` starts it (server.ts on the built app), on an
 * embedded PostgreSQL of its own that this test stops and starts.
 */
const root = path.resolve(new URL('../..', import.meta.url).pathname);
let dataDir: string;
let dbPort: number;
let database: EmbeddedDatabase;
let web: ChildProcess;
let baseUrl: string;
const log: string[] = [];
let cookie = '';
const PASSWORD = 'Outage-password-1';
const LOCK_BOUND_MS = 1000;

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}:\n${log.join('')}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'finflow-outage-'));
  dbPort = await freePort();
  database = await startEmbeddedDatabase({ dataDir, port: dbPort });
  const sequelize = createSequelize(database.url);
  await migrateUp(sequelize);
  // A user who signs in with the password alone, so that requests carry a session the server must look up.
  await sequelize.query(
    `INSERT INTO users (email, first_name, last_name, role, is_active, password_hash, otp_enabled) VALUES ('outage@finflow.test', 'Ana', 'Anić', 'user', true, :hash, false)`,
    { replacements: { hash: await hashPassword(PASSWORD) } },
  );
  await sequelize.close();

  const port = await freePort();
  baseUrl = `http://localhost:${port}`;
  web = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'server.ts')], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      APP_URL: baseUrl,
      SESSION_SECRET: 'outage-test-session-secret-0123456789abcdef',
      // The bound on lock waits, short here so that the test need not wait the default 5 s.
      DB_LOCK_TIMEOUT_MS: String(LOCK_BOUND_MS),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  web.stdout!.on('data', (chunk) => log.push(String(chunk)));
  web.stderr!.on('data', (chunk) => log.push(String(chunk)));
  await waitFor(async () => (await fetch(`${baseUrl}/healthz`)).status === 200, 'the web process');
  const login = await fetch(`${baseUrl}/api/auth/login`, {
    method: 'POST',
    body: JSON.stringify({ email: 'outage@finflow.test', password: PASSWORD }),
    headers: { 'Content-Type': 'application/json', Origin: baseUrl },
  });
  expect(login.status).toBe(200);
  cookie = login.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .find((pair) => pair.startsWith('finflow_session='))!;
  expect(cookie).toBeTruthy();
}, 180_000);

afterAll(async () => {
  web?.kill('SIGTERM');
  await database?.stop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

const API_CALLS: Array<[string, RequestInit]> = [
  ['/api/clients', {}],
  ['/api/auth/user', {}],
  ['/api/invoices?q=R-2026', {}],
  ['/api/clients', { method: 'POST', body: JSON.stringify({ companyName: 'X', oib: '69435151530' }), headers: { 'Content-Type': 'application/json' } }],
  ['/api/auth/login', { method: 'POST', body: JSON.stringify({ email: 'a@b.hr', password: 'whatever-1' }), headers: { 'Content-Type': 'application/json' } }],
];

describe('while the database is away', () => {
  it('answers before the outage as usual', async () => {
    expect((await fetch(`${baseUrl}/api/clients`, { headers: { Cookie: cookie } })).status).toBe(200);
    expect((await fetch(`${baseUrl}/clients`, { headers: { Cookie: cookie } })).status).toBe(200);
  });

  it('answers every API call 503 JSON with Retry-After, every page a 503 page, and logs one line per failure', async () => {
    await database.stop();
    const linesBefore = log.join('').split('\n').length;

    for (const [url, init] of API_CALLS) {
      const response = await fetch(`${baseUrl}${url}`, { ...init, headers: { Origin: baseUrl, Cookie: cookie, ...init.headers } });
      expect(response.status, url).toBe(503);
      expect(response.headers.get('Content-Type'), url).toMatch(/^application\/json/);
      expect(response.headers.get('Retry-After'), url).toMatch(/^\d+$/);
      const body = (await response.json()) as { message: string; code: string };
      // The error shape and nothing more (no stack, no driver text).
      expect(Object.keys(body), url).toEqual(['message', 'code', 'params']);
      expect(body.code, url).toBe('errors.api.unavailable');
      expect(body.message, url).toMatch(/unavailable/i);
    }

    for (const url of ['/clients', '/']) {
      const response = await fetch(`${baseUrl}${url}`, { redirect: 'manual', headers: { Cookie: cookie } });
      expect(response.status, url).toBe(503);
      expect(response.headers.get('Retry-After'), url).toMatch(/^\d+$/);
      const html = await response.text();
      expect(html.match(/<main[\s>]/g), url).toHaveLength(1);
      expect(html.match(/<h1[\s>]/g), url).toHaveLength(1);
      expect(html, url).toContain('Service temporarily unavailable');
    }
    const croatian = await fetch(`${baseUrl}/clients`, { headers: { Cookie: `${cookie}; finflow-language=hr` } });
    expect(await croatian.text()).toContain('Usluga je privremeno nedostupna');

    const failures = API_CALLS.length + 3;
    await waitFor(
      async () =>
        log
          .join('')
          .split('\n')
          .filter((line) => line.startsWith('database unavailable: ')).length >= failures,
      'the log lines',
      5_000,
    );
    const newLines = log
      .join('')
      .split('\n')
      .slice(linesBefore - 1)
      .filter((line) => line.trim() !== '');
    expect(newLines.filter((line) => line.startsWith('database unavailable: '))).toHaveLength(failures);
    // No stack traces: nothing else was written while the database was away.
    expect(newLines.filter((line) => !line.startsWith('database unavailable: '))).toEqual([]);
    expect((await fetch(`${baseUrl}/healthz`)).status).toBe(503);
  });

  it('works again as soon as the database is back', async () => {
    database = await startEmbeddedDatabase({ dataDir, port: dbPort });
    await waitFor(async () => (await fetch(`${baseUrl}/api/clients`, { headers: { Cookie: cookie } })).status === 200, 'the API to answer again', 30_000);
    expect((await fetch(`${baseUrl}/healthz`)).status).toBe(200);
  });
});

describe('while another change holds a record past the bound', () => {
  const profile = (lastName: string) =>
    fetch(`${baseUrl}/api/auth/profile`, {
      method: 'PUT',
      body: JSON.stringify({ firstName: 'Ana', lastName, email: 'outage@finflow.test' }),
      headers: { 'Content-Type': 'application/json', Origin: baseUrl, Cookie: cookie },
      // A change that waited without bound would hang here: fail well before the test's own timeout.
      signal: AbortSignal.timeout(LOCK_BOUND_MS + 15_000),
    });

  it('answers the change 503 busy with Retry-After, changes nothing, logs one line, and takes it once the other is done', async () => {
    const holder = new pg.Client(database.url);
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query(`SELECT id FROM users WHERE email = 'outage@finflow.test' FOR UPDATE`);
      const linesBefore = log.join('').split('\n').length;
      const started = Date.now();
      const busy = await profile('Busy');
      expect(Date.now() - started).toBeGreaterThanOrEqual(LOCK_BOUND_MS - 50);
      expect(busy.status).toBe(503);
      expect(busy.headers.get('Retry-After')).toBe('5');
      const body = (await busy.json()) as { message: string; code: string };
      expect(Object.keys(body)).toEqual(['message', 'code', 'params']);
      expect(body.code).toBe('errors.api.busy');
      expect(body.message).toMatch(/nothing was changed/);
      // Reads take no row locks: the rest of the process answers meanwhile.
      expect((await fetch(`${baseUrl}/api/auth/user`, { headers: { Cookie: cookie } })).status).toBe(200);
      await waitFor(async () => log.join('').includes('lock wait bound reached: PUT /api/auth/profile'), 'the log line', 5_000);
      const newLines = log
        .join('')
        .split('\n')
        .slice(linesBefore - 1)
        .filter((line) => line.trim() !== '');
      expect(newLines).toEqual([expect.stringMatching(/^lock wait bound reached: PUT \/api\/auth\/profile: /)]);
    } finally {
      await holder.query('ROLLBACK');
      await holder.end();
    }
    const user = (await (await fetch(`${baseUrl}/api/auth/user`, { headers: { Cookie: cookie } })).json()) as { lastName: string };
    expect(user.lastName).toBe('Anić');
    const done = await profile('Anić-Horvat');
    expect(done.status).toBe(200);
    expect(((await done.json()) as { lastName: string }).lastName).toBe('Anić-Horvat');
  });
});
