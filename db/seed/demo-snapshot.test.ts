import type * as nodeCrypto from 'node:crypto';
import { createHash } from 'node:crypto';
import { QueryTypes } from 'sequelize';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { getSequelize } from '../connection.ts';
import { seedDemo } from './demo.ts';

/**
 * The demo book, row for row: a digest of every table after seeding a fresh
 * database for a fixed day, against the digests recorded from the book as it
 * is. It guards refactors of db/seed/demo (the book must stay byte-identical);
 * a change to the book or the schema made on purpose records the new digests
 * (the failure prints them).
 *
 * The seed draws every value from its own PRNG and a clock (db/seed/demo/plumbing.ts);
 * what is random by nature is made comparable here:
 * - the UUIDs the seed makes (`randomUUID`) come from a counter while it runs;
 * - the UUIDs the database makes (`DEFAULT gen_random_uuid()`: the reference
 *   data, the fee e-invoices, the activity rows the domain code writes) are
 *   replaced by the row's natural key, or left out where nothing refers to them;
 * - the columns PostgreSQL fills with the transaction's time or random bytes
 *   (RANDOM_COLUMNS) are left out.
 */
const uuids = vi.hoisted(() => ({ next: null as number | null }));
vi.mock('node:crypto', async (importOriginal) => {
  const original = await importOriginal<typeof nodeCrypto>();
  const randomUUID = (() => {
    if (uuids.next === null) return original.randomUUID();
    uuids.next += 1;
    return `00000000-0000-4000-8000-${uuids.next.toString(16).padStart(12, '0')}`;
  }) as typeof original.randomUUID;
  return { ...original, default: { ...original, randomUUID }, randomUUID };
});

const sequelize = getSequelize();
const select = <T extends object>(sql: string) => sequelize.query<T>(sql, { type: QueryTypes.SELECT });

const DAY_OF_THE_BOOK = new Date('2026-11-20T10:30:00Z');

/** Filled by the database with now() or random bytes when the seed runs. */
const RANDOM_COLUMNS: Record<string, string[]> = {
  users: ['updated_at'],
  outgoing_einvoices: ['updated_at'],
  email_logs: ['tracking_token'],
  // The backfill's entries are stamped clock_timestamp() as they are written; the book setting when the seed saved it.
  client_ledger: ['created_at'],
  book_settings: ['updated_at'],
  // The ledger backfill sets the debtors' exposure after the book is written, and the update stamps the row.
  customers: ['updated_at'],
  // The debtor's dispute flags its invoice after the book is written (db/seed/demo/debtors.ts), and the update stamps the row.
  invoices: ['updated_at'],
  // A statement's open-book deltas are numbered in the order its plan groups them, which is the planner's choice.
  open_book_deltas: ['id'],
  workflow_instance_deltas: ['id'],
  workflow_finish_month_deltas: ['id'],
  open_task_deltas: ['id'],
  email_log_deltas: ['id'],
};

/** Rows whose id the database draws, named by what identifies them. */
const NATURAL_KEYS: Record<string, string> = {
  integrations: 'type',
  workflow_definitions: `type || '/' || name`,
  email_templates: `trigger || '/' || name`,
  outgoing_einvoices: 'number',
};

const SEEDED_UUID = /^00000000-0000-4000-8000-[0-9a-f]{12}$/;
const ANY_UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

async function tableDigests(): Promise<Record<string, string>> {
  const names = new Map<string, string>();
  for (const [table, key] of Object.entries(NATURAL_KEYS)) {
    const rows = await select<{ id: string; key: string }>(`SELECT id::text, ${key} AS key FROM ${table}`);
    for (const row of rows) names.set(row.id, `${table}:${row.key}`);
  }
  const tables = await select<{ tablename: string }>(`SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'schema_migrations' ORDER BY tablename`);
  const digests: Record<string, string> = {};
  for (const { tablename } of tables) {
    const dropped = (RANDOM_COLUMNS[tablename] ?? []).map((column) => ` - '${column}'`).join('');
    const rows = await select<{ line: string }>(`SELECT (to_jsonb(t)${dropped})::text AS line FROM ${tablename} t`);
    const lines = rows.map(({ line }) => line.replace(ANY_UUID, (uuid) => (SEEDED_UUID.test(uuid) ? uuid : (names.get(uuid) ?? 'database-drawn-id')))).sort();
    digests[tablename] = `${lines.length} ${createHash('sha256').update(lines.join('\n')).digest('hex').slice(0, 16)}`;
  }
  return digests;
}

beforeAll(async () => {
  uuids.next = 0;
  try {
    expect(await seedDemo(sequelize, { now: DAY_OF_THE_BOOK })).toEqual({ seeded: true });
  } finally {
    uuids.next = null;
  }
});

describe('the demo book', () => {
  it('is row for row the recorded one', async () => {
    expect(await tableDigests()).toEqual(RECORDED);
  });
});

// Row count and digest of each table, recorded from the book before db/seed/demo.ts was split; recorded again when the
// book got its clients' ledgers (reserve releases net of the fee's VAT, used credit as the ledger sums, four adjustments),
// and the dashboard's maintained month changes of the advances outstanding (client_advance_changes, filled by trigger);
// client_book_deltas (the dashboard's client totals) are filled by trigger from the same clients, and
// workflow_instance_deltas and workflow_finish_month_deltas (the workflow totals) from the same instances, open_task_deltas from the same tasks,
// email_log_deltas from the same delivery log.
const RECORDED: Record<string, string> = {
  activity_logs: '655 6b11018b28a3d5c4',
  agreements: '41 0d75e2756edfa579',
  backups: '0 e3b0c44298fc1c14',
  bank_statement_entries: '0 e3b0c44298fc1c14',
  bank_statements: '0 e3b0c44298fc1c14',
  book_settings: '1 6f8265963c682af1',
  client_advance_changes: '421 fdd8b7ad512ce22a',
  client_book_deltas: '22 2d15e5c83cd9f793',
  client_month_start_deltas: '0 e3b0c44298fc1c14',
  client_month_starts: '0 e3b0c44298fc1c14',
  client_ledger: '2368 5e5ed859613c5ade',
  clients: '40 996667f7beee7e39',
  credit_limit_requests: '199 10a61d5f7ef4ceb1',
  credit_notes: '4 854619e2820f5bb6',
  customers: '120 8afa498e16fc00d2',
  debtor_answers: '2 1de6d343222e880b',
  debtor_links: '4 b8e5cd942f6adabd',
  debtor_notices: '4 5f7d60a12f74a5c0',
  documents: '119 1e323ddee88eebce',
  dunning_holds: '1 6bf04942ec03f436',
  dunning_notices: '12 f792cf2c8c5a43c1',
  email_attachments: '16 4651a546c13de0a1',
  email_campaigns: '5 72f84eadc2726910',
  email_log_deltas: '6 c86bc5f26c0cc6fe',
  email_logs: '122 228cfe0777083638',
  email_templates: '12 a1f3ba7e7cc1d6e5',
  incoming_einvoices: '0 e3b0c44298fc1c14',
  install_steps: '2 9a89ceb89249eef6',
  integration_logs: '60 d7655a2be6a1dcdb',
  integrations: '5 ec665ba67140013d',
  invoice_day_deltas: '500 96cb75cc17c44d87',
  invoice_disputes: '2 1d56727fa0135a61',
  invoice_lines: '355 c39e85ecc7832ded',
  invoice_payable_deltas: '3 c1e01815f1d9f540',
  invoice_status_deltas: '10 c2830135f703f565',
  invoices: '574 06e692bc2546118f',
  kyc_document_requests: '0 e3b0c44298fc1c14',
  ledger_adjustments: '4 334be9118e3e5253',
  login_throttle: '0 e3b0c44298fc1c14',
  open_book_changes: '985 f8edfdb479c36a0b',
  open_book_deltas: '4045 7e271ab022ef7edc',
  open_book_totals: '0 e3b0c44298fc1c14',
  open_task_deltas: '6 244dd642d442938f',
  outgoing_einvoice_counters: '1 f1f9ca9115eb8b74',
  outgoing_einvoices: '320 a4f12c142245be3b',
  payments: '564 6e156bdde29ddaf5',
  payouts: '903 8d9d25e78e43b4c1',
  registration_draft_files: '0 e3b0c44298fc1c14',
  registration_drafts: '0 e3b0c44298fc1c14',
  registration_rate_limits: '0 e3b0c44298fc1c14',
  risk_assessments: '250 3538ce27100814ab',
  sessions: '0 e3b0c44298fc1c14',
  tasks: '90 38efc21518023439',
  upload_objects: '0 e3b0c44298fc1c14',
  user_tokens: '0 e3b0c44298fc1c14',
  users: '6 a19dbdf2cc491813',
  worker_heartbeats: '0 e3b0c44298fc1c14',
  write_off_requests: '2 7369a9f3ccf9b1ba',
  workflow_definitions: '4 dc97cd556085e5d7',
  workflow_finish_month_deltas: '7 8ad97c083364bb11',
  workflow_instance_deltas: '4 111738361764a817',
  workflow_instances: '40 d957a01c6560d63c',
  workflow_step_runs: '161 7bb1fdca12262208',
};
