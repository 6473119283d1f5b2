import { strFromU8, unzipSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import { getSequelize } from '../../db/connection.ts';
import { seedDemo } from '../../db/seed/demo.ts';
import { activityRows, apiFailure, getRequest, signedInCookie } from '../auth/test-helpers.server.ts';
import { toPublicUser, type UserRow } from '../auth/user-record.server.ts';
import { execute, selectOne, selectRows } from '../db.server.ts';
import { loader } from '../routes/api.exports.book[.]zip.ts';
import { batchSql, BOOK_TABLES, exportBook, NOT_EXPORTED } from './book-export.server.ts';
import { openSnapshot, publicTables } from './snapshot.server.ts';
import { parseCsv } from './test-csv.ts';
import { createTestUser } from '../../tests/factories.ts';

/**
 * The book export read back: unzipped, every CSV parsed with an RFC 4180
 * parser written here, and compared with the database.
 */
let admin: UserRow;
let adminCookie: string;
const SECRETS = {
  integrationSettings: 'v1:SECRET-CIPHERTEXT-OF-CREDENTIALS',
  totp: 'v1:SECRET-TOTP-CIPHERTEXT',
  tokenHash: 'f'.repeat(64),
};
const TRICKY_NAME = 'Kovač, "Žuta" & Šimić\r\nd.o.o. — Đakovo';

beforeAll(async () => {
  await seedDemo(getSequelize(), { now: new Date() });
  admin = await createTestUser({ role: 'admin' });
  adminCookie = await signedInCookie(admin.id);
  await execute(`UPDATE users SET totp_secret_encrypted = :totp WHERE id = :id`, { totp: SECRETS.totp, id: admin.id });
  await execute(`UPDATE integrations SET settings_encrypted = :settings`, { settings: SECRETS.integrationSettings });
  await execute(`INSERT INTO user_tokens (user_id, purpose, token_hash, expires_at) VALUES (:id, 'set_password', :hash, now() + interval '1 day')`, {
    id: admin.id,
    hash: SECRETS.tokenHash,
  });
  await execute(`INSERT INTO clients (company_name, oib, city) VALUES (:name, '12345678903', ' Osijek ')`, { name: TRICKY_NAME });
}, 180_000);

async function readZip(stream: ReadableStream<Uint8Array>) {
  const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
  const files = unzipSync(bytes);
  const csv = new Map<string, { header: string[]; rows: Array<Record<string, string>>; raw: Uint8Array }>();
  for (const [name, raw] of Object.entries(files)) {
    if (!name.endsWith('.csv')) continue;
    expect([...raw.subarray(0, 3)], `${name} starts with a BOM`).toEqual([0xef, 0xbb, 0xbf]);
    const [header, ...records] = parseCsv(new TextDecoder('utf-8', { fatal: true }).decode(raw.subarray(3)), ',');
    for (const record of records) expect(record, name).toHaveLength(header.length);
    csv.set(name, { header, rows: records.map((record) => Object.fromEntries(header.map((column, i) => [column, record[i]]))), raw });
  }
  return { names: Object.keys(files), csv, manifest: JSON.parse(strFromU8(files['manifest.json'])) as { files: Array<{ file: string; rows: number }> }, bytes };
}

const count = async (table: string) => Number((await selectOne<{ n: string }>(`SELECT count(*) AS n FROM ${table}`))!.n);

describe('GET /api/exports/book.zip', () => {
  let zip: Awaited<ReturnType<typeof readZip>>;
  let response: Response;

  beforeAll(async () => {
    response = await loader({ request: getRequest('/api/exports/book.zip', adminCookie), params: {}, context: { clientIp: '10.1.2.3' } });
    zip = await readZip(response.body!);
  });

  it('answers a zip download named after the day', () => {
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toBe('application/zip');
    expect(response.headers.get('Content-Disposition')).toMatch(/^attachment; filename="finflow-book-\d{4}-\d{2}-\d{2}\.zip"$/);
  });

  it('has one CSV per exported table whose rows equal the table', async () => {
    const tables = (await selectRows<{ name: string }>(`SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public'`)).map((row) => row.name);
    const expected = BOOK_TABLES.map((spec) => spec.table).filter((table) => tables.includes(table));
    expect([...zip.csv.keys()].sort()).toEqual(expected.map((table) => `${table}.csv`).sort());
    for (const table of expected) {
      const file = zip.csv.get(`${table}.csv`)!;
      // The export's own data_exported row is written after its snapshot began.
      const rows = (await count(table)) - (table === 'activity_logs' ? 1 : 0);
      expect(file.rows.length, table).toBe(rows);
      expect(zip.manifest.files.find((entry) => entry.file === `${table}.csv`)?.rows, table).toBe(rows);
      // No row twice, none missing.
      expect(new Set(file.rows.map((row) => row.id)).size, table).toBe(rows);
    }
    for (const table of ['clients', 'invoices', 'payments', 'activity_logs', 'tasks', 'documents', 'email_logs'])
      expect(zip.csv.get(`${table}.csv`)!.rows.length, table).toBeGreaterThan(0);
  });

  it('writes money as the exact decimal, days and instants in ISO 8601', async () => {
    const invoices = await selectRows<{ id: string; amount: string; factor_amount: string | null; paid_amount: string; issue_date: string; created_at: string }>(
      `SELECT id, amount::text, factor_amount::text, paid_amount::text, issue_date::text,
              to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS created_at FROM invoices`,
    );
    const exported = new Map(zip.csv.get('invoices.csv')!.rows.map((row) => [row.id, row]));
    for (const invoice of invoices) {
      const row = exported.get(invoice.id)!;
      expect(row.amount).toBe(invoice.amount);
      expect(row.factor_amount).toBe(invoice.factor_amount ?? '');
      expect(row.paid_amount).toBe(invoice.paid_amount);
      expect(row.issue_date).toBe(invoice.issue_date);
      expect(row.created_at).toBe(invoice.created_at);
    }
    expect([...exported.values()].some((row) => /^\d+\.\d[1-9]$/.test(row.amount))).toBe(true);
    const payment = await selectOne<{ id: string; amount: string }>(`SELECT id, amount::text FROM payments ORDER BY amount DESC LIMIT 1`);
    expect(zip.csv.get('payments.csv')!.rows.find((row) => row.id === payment!.id)!.amount).toBe(payment!.amount);
    const line = zip.csv.get('invoice_lines.csv')!.rows[0];
    if (line) expect(line.quantity).toMatch(/^-?\d+\.\d{4}$/);
  });

  it('quotes commas, quotes and line breaks and keeps Croatian letters and blanks', () => {
    const client = zip.csv.get('clients.csv')!.rows.find((row) => row.company_name === TRICKY_NAME);
    expect(client).toBeDefined();
    expect(client!.city).toBe(' Osijek ');
    expect(client!.oib).toBe('12345678903');
  });

  it('leaves out every credential and secret', () => {
    const everything = Buffer.from(zip.bytes).toString('latin1') + [...zip.csv.values()].map((file) => Buffer.from(file.raw).toString('utf8')).join('');
    for (const secret of Object.values(SECRETS)) expect(everything).not.toContain(secret);
    expect(everything).not.toContain(admin.password_hash!);
    for (const name of ['sessions.csv', 'user_tokens.csv', 'login_throttle.csv', 'backups.csv']) expect(zip.names).not.toContain(name);
    expect(zip.csv.get('users.csv')!.header).toEqual(['id', 'email', 'first_name', 'last_name', 'role', 'is_active', 'otp_enabled', 'last_login_at', 'created_at', 'updated_at']);
    expect(zip.csv.get('integrations.csv')!.header).not.toContain('settings_encrypted');
    expect(zip.csv.get('email_logs.csv')!.header).not.toContain('tracking_token');
    expect(zip.csv.get('documents.csv')!.header).not.toContain('storage_key');
    expect(zip.csv.get('documents.csv')!.header).toContain('checksum');
  });

  it('is logged as data_exported with who, from where and the row counts', async () => {
    const [row] = await activityRows('data_exported');
    expect(row).toMatchObject({ user_id: admin.id, ip_address: '10.1.2.3' });
    expect((row.details as { files: Record<string, number> }).files['invoices.csv']).toBe(await count('invoices'));
  });
});

describe('the book export', () => {
  it('reads one snapshot: rows written after it starts are not in it, in pages of any size', async () => {
    const before = await count('clients');
    const file = await exportBook({ actor: toPublicUser(admin), batchRows: 7 });
    await execute(`INSERT INTO clients (company_name, oib) VALUES ('Kasnije d.o.o.', '98765432106')`);
    await execute(`DELETE FROM tasks WHERE id = (SELECT id FROM tasks LIMIT 1)`);
    const zip = await readZip(file.stream);
    expect(zip.csv.get('clients.csv')!.rows).toHaveLength(before);
    expect(zip.csv.get('clients.csv')!.rows.some((row) => row.company_name === 'Kasnije d.o.o.')).toBe(false);
    expect(zip.csv.get('tasks.csv')!.rows).toHaveLength((await count('tasks')) + 1);
    expect(file.files['clients.csv']).toBe(before);
  });

  it('classifies every table of the schema as exported or left out, and exports only tables that exist', async () => {
    const tables = (await selectRows<{ name: string }>(`SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public'`)).map((row) => row.name).sort();
    const exported = BOOK_TABLES.map((spec) => spec.table);
    expect([...exported, ...Object.keys(NOT_EXPORTED)].sort()).toEqual(tables);
  });

  it('reads each page through the primary key, without sorting the table (a million invoices are read in linear time)', async () => {
    const snapshot = await openSnapshot();
    try {
      const columns = (await publicTables(snapshot)).get('invoices')!;
      // The demo table is small enough for a scan and a sort to look cheaper; what matters is that the index order serves.
      await snapshot.query('SET LOCAL enable_seqscan = off');
      await snapshot.query('SET LOCAL enable_bitmapscan = off');
      for (const after of [false, true]) {
        const [{ 'QUERY PLAN': plan }] = await snapshot.query<{ 'QUERY PLAN': unknown }>(
          `EXPLAIN (FORMAT JSON) ${batchSql('invoices', columns, after, 5000)}`,
          after ? ['00000000-0000-4000-8000-000000000000'] : [],
        );
        const text = JSON.stringify(plan);
        expect(text).toContain('"Index Name":"invoices_pkey"');
        expect(text).not.toContain('"Node Type":"Sort"');
      }
    } finally {
      await snapshot.close();
    }
  });

  it('is refused to a manager and to a visitor without a session', async () => {
    const manager = await createTestUser({ role: 'manager' });
    const refused = await apiFailure(loader({ request: getRequest('/api/exports/book.zip', await signedInCookie(manager.id)), params: {}, context: {} }));
    expect(refused.status).toBe(403);
    expect((await apiFailure(loader({ request: getRequest('/api/exports/book.zip'), params: {}, context: {} }))).status).toBe(401);
  });

  it('stops reading and releases its connection when the client goes away', async () => {
    const abort = new AbortController();
    const file = await exportBook({ actor: toPublicUser(admin), batchRows: 3, signal: abort.signal });
    const reader = file.stream.getReader();
    await reader.read();
    abort.abort();
    await expect(async () => {
      for (;;) if ((await reader.read()).done) break;
    }).rejects.toThrow();
    await expect
      .poll(async () =>
        Number((await selectOne<{ n: string }>(`SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'finflow-book-export'`))!.n),
      )
      .toBe(0);
  });
});
