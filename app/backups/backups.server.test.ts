import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { unzipSync, zipSync, strFromU8, strToU8 } from 'fflate';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { getSequelize } from '../../db/connection.ts';
import { seedDemo } from '../../db/seed/demo.ts';
import { stopSender } from '../jobs/boss.server.ts';
import { activityRows, apiFailure, getRequest, rejection, signedInCookie } from '../auth/test-helpers.server.ts';
import { toPublicUser, type UserRow } from '../auth/user-record.server.ts';
import { execute, selectOne, selectRows } from '../db.server.ts';
import { openSnapshot } from '../exports/snapshot.server.ts';
import { loader as downloadLoader } from '../routes/api.backups.$id.download.ts';
import { action as backupsAction, loader as backupsLoader } from '../routes/api.backups.ts';
import { action as settingsAction, loader as settingsLoader } from '../routes/_app.settings.tsx';
import { NOT_BACKED_UP, readManifest, writeBackup, type BackupManifest } from './archive.server.ts';
import { backupsDir, openBackupDownload, requestBackup, runBackup, type BackupView } from './backups.server.ts';
import { restoreBackup, RestoreError } from './restore.server.ts';
import { createTestUser } from '../../tests/factories.ts';
import { onMaintenanceDatabase } from '../../tests/support/throwaway-database.ts';

/**
 * A backup of the demo book is restored into fresh databases and compared
 * table by table (row count and an md5 over every row's text) with the
 * source; damaged files, non-empty databases and other migration levels are
 * refused without leaving anything behind.
 */
const serverUrl = inject('databaseServerUrl');
const databases: string[] = [];
let admin: UserRow;
let backup: BackupView;
let file: string;
let manifest: BackupManifest;
/** The source's tables as the snapshot saw them: count and checksum of each. */
let source: Map<string, { rows: number; md5: string | null }>;

const admin_query = (sql: string) => onMaintenanceDatabase(serverUrl, sql);

async function freshDatabase(): Promise<string> {
  const name = `restore_${randomUUID().replace(/-/g, '')}`;
  await admin_query(`CREATE DATABASE ${name}`);
  databases.push(name);
  return `${serverUrl}/${name}`;
}

/** A fresh database with what the source has beyond its migrations (the test's own sequence). */
async function restorableDatabase(): Promise<string> {
  const url = await freshDatabase();
  await onDatabase(url, (client) => client.query('CREATE SEQUENCE backup_test_seq'));
  return url;
}

async function onDatabase<T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client(url);
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

const CHECKSUM = (table: string, where = '') => `SELECT count(*)::int AS rows, md5(string_agg(t::text, '|' ORDER BY t::text)) AS md5 FROM "${table}" t ${where}`;

async function tableChecksums(url: string, tables: string[]) {
  return onDatabase(url, async (client) => {
    const result = new Map<string, { rows: number; md5: string | null }>();
    for (const table of tables) result.set(table, (await client.query(CHECKSUM(table))).rows[0]);
    return result;
  });
}

beforeAll(async () => {
  await seedDemo(getSequelize(), { now: new Date() });
  admin = await createTestUser({ role: 'admin' });
  // A sequence, to see its value carried over (the schema has none of its own yet).
  await execute(`CREATE SEQUENCE backup_test_seq; SELECT setval('backup_test_seq', 41)`);
  await execute(`INSERT INTO clients (company_name, oib, address) VALUES (:name, '12345678903', :address)`, {
    name: 'Tab\tand "quotes", Ćevapi d.o.o.',
    address: 'Line one\nline two \\ backslash',
  });
  backup = await requestBackup({ actor: toPublicUser(admin), ip: '10.0.0.7' });
  expect(backup.status).toBe('pending');
  backup = (await runBackup(backup.id))!;
  file = path.join(backupsDir(), backup.fileName!);
  ({ manifest } = await readManifest(file));
  // Everything in the backup; the activity log without what was written after its snapshot.
  source = new Map();
  for (const table of manifest.tables) {
    source.set(
      table.name,
      (await selectRows<{ rows: number; md5: string | null }>(CHECKSUM(table.name, table.name === 'activity_logs' ? `WHERE NOT (action = 'backup_completed')` : '')))[0],
    );
  }
}, 180_000);

afterAll(async () => {
  await stopSender();
  for (const name of databases) await admin_query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
});

describe('a backup', () => {
  it('completes with its file in DATA_DIR/backups, its size, SHA-256 and counts recorded and logged', async () => {
    expect(backup).toMatchObject({ status: 'completed', error: null, requestedBy: { id: admin.id } });
    expect(backup.fileName).toMatch(/^finflow-backup-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z-[0-9a-f]{8}\.zip$/);
    const bytes = fs.readFileSync(file);
    expect(bytes.length).toBe(backup.size);
    const { createHash } = await import('node:crypto');
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(backup.sha256);
    expect(backup.tableCount).toBe(manifest.tables.length);
    expect(backup.rowCount).toBe(manifest.tables.reduce((sum, table) => sum + table.rows, 0));
    expect(fs.readdirSync(backupsDir()).filter((name) => name.endsWith('.partial'))).toEqual([]);
    expect(await activityRows('backup_requested', backup.id)).toMatchObject([{ user_id: admin.id, ip_address: '10.0.0.7' }]);
    expect(await activityRows('backup_completed', backup.id)).toHaveLength(1);
  });

  it('holds every application table, a manifest first and SHA256SUMS last', async () => {
    const entries = Object.keys(unzipSync(fs.readFileSync(file)));
    expect(entries[0]).toBe('manifest.json');
    expect(entries.at(-1)).toBe('SHA256SUMS');
    const tables = (await selectRows<{ name: string }>(`SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public'`)).map((row) => row.name);
    expect(manifest.tables.map((table) => table.name).sort()).toEqual(tables.filter((table) => !Object.hasOwn(NOT_BACKED_UP, table)).sort());
    expect(manifest.migrations).toEqual((await selectRows<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name')).map((row) => row.name));
    expect(manifest.sequences).toContainEqual({ name: 'backup_test_seq', lastValue: '41' });
    // Parents first: clients before invoices before payments, users before everything that names a user.
    const at = (table: string) => manifest.tables.findIndex((entry) => entry.name === table);
    expect(at('clients')).toBeLessThan(at('invoices'));
    expect(at('invoices')).toBeLessThan(at('payments'));
    expect(at('users')).toBeLessThan(at('clients'));
    expect(manifest.tables.find((table) => table.name === 'invoices')!.rows).toBe(source.get('invoices')!.rows);
  });

  it('restores into a fresh database with every table equal to the source', async () => {
    const url = await restorableDatabase();
    const lines: string[] = [];
    const result = await restoreBackup({ databaseUrl: url, file, log: (line) => lines.push(line) });
    expect(result.rows).toBe(backup.rowCount);
    const restored = await tableChecksums(url, [...source.keys()]);
    for (const [table, expected] of source) expect(restored.get(table), table).toEqual(expected);
    expect(source.get('invoices')!.rows).toBeGreaterThan(500);
    expect(source.get('activity_logs')!.rows).toBeGreaterThan(300);
    expect(await onDatabase(url, async (client) => (await client.query(`SELECT last_value::int AS value FROM backup_test_seq`)).rows[0].value)).toBe(41);
    expect(lines.at(-1)).toBe(`restored ${result.rows} rows in ${manifest.tables.length} tables`);

    // Money survives to the cent, the tricky text byte for byte.
    const amounts = await selectRows<{ id: string; amount: string }>('SELECT id, amount::text FROM invoices ORDER BY id LIMIT 50');
    const restoredAmounts = await onDatabase(url, async (client) => (await client.query('SELECT id, amount::text FROM invoices ORDER BY id LIMIT 50')).rows);
    expect(restoredAmounts).toEqual(amounts);
    expect(await onDatabase(url, async (client) => (await client.query(`SELECT address FROM clients WHERE oib = '12345678903'`)).rows[0].address)).toBe(
      'Line one\nline two \\ backslash',
    );

    // A second restore into the same database is refused: it is not empty any more.
    const error = await rejection(restoreBackup({ databaseUrl: url, file }));
    expect(error).toBeInstanceOf(RestoreError);
    expect((error as Error).message).toMatch(/^The database is not empty \(rows in [a-z_, ]*clients/);
    expect((await tableChecksums(url, ['invoices'])).get('invoices')).toEqual(source.get('invoices'));
  });

  it('refuses a database at another migration level, leaving it as it was', async () => {
    const other = await freshDatabase();
    // Migrated, then one migration more than the backup knows.
    await onDatabase(other, async (client) => {
      await client.query(`CREATE TABLE schema_migrations (name varchar(255) PRIMARY KEY)`);
      await client.query(`INSERT INTO schema_migrations (name) VALUES ('2099.01.01T00.00.00.from-the-future')`);
    });
    const error = await rejection(restoreBackup({ databaseUrl: other, file }));
    expect(error).toBeInstanceOf(RestoreError);
    expect((error as Error).message).toContain('Here, not in the backup: 2099.01.01T00.00.00.from-the-future');
    expect((await tableChecksums(other, ['clients'])).get('clients')!.rows).toBe(0);

    // The same migrations, but without a sequence the backup carries a value for.
    const bare = await freshDatabase();
    expect(((await rejection(restoreBackup({ databaseUrl: bare, file }))) as Error).message).toBe('Sequences of the backup do not exist in this database: backup_test_seq');
  });

  it('refuses a damaged file and rolls back whatever it had loaded', async () => {
    const damaged = writeModified(file, (entries) => {
      const name = Object.keys(entries).find((entry) => entry.startsWith('data/invoices/'))!;
      const text = strFromU8(entries[name]);
      // One amount changed by a cent, the file otherwise well-formed.
      entries[name] = strToU8(text.replace(/\t(\d+)\.(\d)(\d)\t/, (_all, euros: string, tenth: string, cent: string) => `\t${euros}.${tenth}${(Number(cent) + 1) % 10}\t`));
      expect(strFromU8(entries[name])).not.toBe(text);
      return entries;
    });
    const url = await restorableDatabase();
    const error = await rejection(restoreBackup({ databaseUrl: url, file: damaged }));
    expect(error).toBeInstanceOf(RestoreError);
    expect((error as Error).message).toMatch(/^data\/invoices\/0001\.copy does not match its SHA-256/);
    const after = await tableChecksums(url, ['users', 'clients', 'invoices']);
    expect([...after.values()].map((entry) => entry.rows)).toEqual([0, 0, 0]);

    const notABackup = path.join(os.tmpdir(), `not-a-backup-${randomUUID()}.zip`);
    fs.writeFileSync(notABackup, zipSync({ 'readme.txt': strToU8('hello') }));
    expect(((await rejection(restoreBackup({ databaseUrl: url, file: notABackup }))) as Error).message).toMatch(/manifest\.json is not its first entry/);
    fs.writeFileSync(notABackup, 'plain text');
    expect(await rejection(restoreBackup({ databaseUrl: url, file: notABackup }))).toBeInstanceOf(RestoreError);
    fs.rmSync(notABackup);
  });

  it('splits a large table into parts between rows, and restores them as one', async () => {
    const snapshot = await openSnapshot();
    const target = path.join(os.tmpdir(), `split-${randomUUID()}.zip`);
    try {
      await writeBackup(snapshot, target, { partBytes: 8 * 1024 });
    } finally {
      await snapshot.close();
    }
    const entries = Object.keys(unzipSync(fs.readFileSync(target)));
    // Cut at the first row end past the limit in what COPY sent, so a part holds at least one of its chunks.
    expect(entries.filter((name) => name.startsWith('data/invoices/')).length).toBeGreaterThan(2);
    const url = await restorableDatabase();
    await restoreBackup({ databaseUrl: url, file: target });
    const restored = await tableChecksums(url, ['invoices', 'clients']);
    expect(restored.get('invoices')).toEqual(source.get('invoices'));
    fs.rmSync(target);
  });
});

/** A copy of the backup with its entries changed by `change`, SHA256SUMS left as it was. */
function writeModified(original: string, change: (entries: Record<string, Uint8Array>) => Record<string, Uint8Array>): string {
  const target = path.join(os.tmpdir(), `modified-${randomUUID()}.zip`);
  fs.writeFileSync(target, zipSync(change(unzipSync(fs.readFileSync(original)))));
  return target;
}

describe('asking for and downloading backups', () => {
  // One backup at a time: each test starts with none in progress, whatever another test left pending.
  beforeEach(async () => {
    await execute(`UPDATE backups SET status = 'failed', error = 'test', completed_at = now() WHERE status IN ('pending', 'running')`);
  });

  it('allows one backup at a time; one that stopped making progress no longer blocks', async () => {
    const actor = toPublicUser(admin);
    const pending = await requestBackup({ actor });
    expect((await apiFailure(requestBackup({ actor }))).status).toBe(409);
    // The trigger keeps updated_at current; switched off to age the row.
    await execute(`ALTER TABLE backups DISABLE TRIGGER backups_set_updated_at`);
    await execute(`UPDATE backups SET updated_at = now() - interval '16 minutes' WHERE id = :id`, { id: pending.id });
    await execute(`ALTER TABLE backups ENABLE TRIGGER backups_set_updated_at`);
    const next = await requestBackup({ actor });
    const stale = await selectOne<{ status: string; error: string }>('SELECT status, error FROM backups WHERE id = :id', { id: pending.id });
    expect(stale).toMatchObject({ status: 'failed', error: expect.stringMatching(/^Interrupted: no progress for 15 minutes/) });
    // The job of the stale one, should it still run, leaves it alone.
    expect((await runBackup(pending.id))!.status).toBe('failed');
    await execute(`UPDATE backups SET status = 'failed', error = 'test', completed_at = now() WHERE id = :id`, { id: next.id });
  });

  it('marks a backup failed, with the reason, when its file cannot be written', async () => {
    const pending = await requestBackup({ actor: toPublicUser(admin) });
    const dataDir = process.env.DATA_DIR;
    const blocked = fs.mkdtempSync(path.join(os.tmpdir(), 'finflow-blocked-'));
    fs.writeFileSync(path.join(blocked, 'backups'), 'a file where the folder should be');
    process.env.DATA_DIR = blocked;
    try {
      await expect(runBackup(pending.id)).rejects.toThrow();
    } finally {
      process.env.DATA_DIR = dataDir;
      fs.rmSync(blocked, { recursive: true, force: true });
    }
    const row = await selectOne<{ status: string; error: string }>('SELECT status, error FROM backups WHERE id = :id', { id: pending.id });
    expect(row).toMatchObject({ status: 'failed', error: expect.stringMatching(/EEXIST|ENOTDIR/) });
    expect(await activityRows('backup_failed', pending.id)).toHaveLength(1);
  });

  it('downloads a completed backup after checking its SHA-256, and logs it; a damaged file is refused', async () => {
    const cookie = await signedInCookie(admin.id);
    const response = await downloadLoader({ request: getRequest(`/api/backups/${backup.id}/download`, cookie), params: { id: backup.id }, context: { clientIp: '10.0.0.9' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Disposition')).toBe(`attachment; filename="${backup.fileName}"`);
    expect(Buffer.from(await response.arrayBuffer()).equals(fs.readFileSync(file))).toBe(true);
    expect(await activityRows('backup_downloaded', backup.id)).toMatchObject([{ user_id: admin.id, ip_address: '10.0.0.9' }]);

    const copy = `${file}.orig`;
    fs.copyFileSync(file, copy);
    try {
      const bytes = fs.readFileSync(file);
      bytes[Math.floor(bytes.length / 2)] ^= 0xff;
      fs.writeFileSync(file, bytes);
      expect(await apiFailure(openBackupDownload({ actor: toPublicUser(admin), id: backup.id }))).toMatchObject({
        status: 409,
        body: { message: 'The backup file does not match its checksum' },
      });
    } finally {
      fs.renameSync(copy, file);
    }
    expect((await apiFailure(openBackupDownload({ actor: toPublicUser(admin), id: randomUUID() }))).status).toBe(404);
  });

  it('GET and POST /api/backups are for admins: a list with its count, and a new pending backup', async () => {
    const cookie = await signedInCookie(admin.id);
    // Its own backups, so the list has more rows than the limit whatever ran before.
    const older = await requestBackup({ actor: toPublicUser(admin) });
    await execute(`UPDATE backups SET status = 'failed', error = 'test', completed_at = now() WHERE id = :id`, { id: older.id });
    const newer = await requestBackup({ actor: toPublicUser(admin) });
    await execute(`UPDATE backups SET status = 'failed', error = 'test', completed_at = now() WHERE id = :id`, { id: newer.id });
    const total = (await selectOne<{ n: number }>('SELECT count(*)::int AS n FROM backups'))!.n;
    expect(total).toBeGreaterThanOrEqual(3);

    const list = await backupsLoader({ request: getRequest('/api/backups?limit=2', cookie), params: {}, context: {} });
    expect(list.status).toBe(200);
    expect(Number(list.headers.get('X-Total-Count'))).toBe(total);
    const rows = (await list.json()) as BackupView[];
    expect(rows).toHaveLength(2);
    expect(rows[0].createdAt >= rows[1].createdAt).toBe(true);
    expect(rows.map((row) => row.id)).toEqual([newer.id, older.id]);

    const created = await backupsAction({ request: new Request('http://localhost/api/backups', { method: 'POST', headers: { Cookie: cookie } }), params: {}, context: {} });
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ status: 'pending', requestedBy: { id: admin.id } });

    const manager = await createTestUser({ role: 'manager' });
    const managerCookie = await signedInCookie(manager.id);
    expect((await apiFailure(backupsLoader({ request: getRequest('/api/backups', managerCookie), params: {}, context: {} }))).status).toBe(403);
    expect((await apiFailure(downloadLoader({ request: getRequest(`/api/backups/${backup.id}/download`, managerCookie), params: { id: backup.id }, context: {} }))).status).toBe(
      403,
    );
  });

  it("the Settings page lists them for an admin, and its 'Stvori sigurnosnu kopiju' form starts one", async () => {
    const cookie = await signedInCookie(admin.id);
    const page = await settingsLoader({ request: getRequest('/settings', cookie), params: {}, context: {} });
    const data = (await page.json()) as { backups: BackupView[]; canBackup: boolean; canExport: boolean };
    expect(data).toMatchObject({ canBackup: true, canExport: true });
    expect(data.backups.length).toBeGreaterThan(0);
    const post = (user: string) =>
      new Request('http://localhost/settings', { method: 'POST', headers: { Cookie: user, 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'intent=backup' });
    const response = await settingsAction({ request: post(cookie), params: {}, context: { clientIp: '10.0.0.8' } });
    expect(response.status).toBe(302);
    expect(response.headers.get('Location')).toBe('/settings');
    expect(await activityRows('backup_requested')).toEqual(expect.arrayContaining([expect.objectContaining({ ip_address: '10.0.0.8' })]));
    // A second click while it is pending is told so, not queued.
    const again = await settingsAction({ request: post(cookie), params: {}, context: {} });
    expect(again.status).toBe(302);
    expect(Number((await selectOne<{ n: string }>(`SELECT count(*) AS n FROM backups WHERE status = 'pending'`))!.n)).toBe(1);

    const manager = await createTestUser({ role: 'manager' });
    const managerCookie = await signedInCookie(manager.id);
    const refused = (await rejection(settingsAction({ request: post(managerCookie), params: {}, context: {} }))) as Response;
    expect(refused.status).toBe(403);
    const managerPage = (await (await settingsLoader({ request: getRequest('/settings', managerCookie), params: {}, context: {} })).json()) as {
      backups: unknown;
      canBackup: boolean;
    };
    expect(managerPage).toMatchObject({ backups: null, canBackup: false });
  });
});
