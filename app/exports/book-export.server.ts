import { Zip, ZipDeflate, strToU8 } from 'fflate';
import packageJson from '../../package.json';
import { logActivity } from '../activity-log.server.ts';
import type { PublicUser } from '../auth/user-record.server.ts';
import { assertCan } from '../auth/permissions.server.ts';
import { inTransaction } from '../db.server.ts';
import { CSV_BOM, csvRecord } from './csv.ts';
import { openSnapshot, publicTables, quoteIdent, type CatalogColumn, type Snapshot } from './snapshot.server.ts';
import { sqlBusinessLocal } from '../utils/business-time.ts';

/**
 * Settings' 'Izvezi podatke': the book as a zip of one CSV
 * per business entity, for an auditor, an accountant or a move to another
 * system.
 *
 * - One consistent snapshot: every file is read in one REPEATABLE READ READ
 *   ONLY transaction, so the files agree with each other (an invoice's
 *   payments are in payments.csv) whatever is written meanwhile.
 * - Streamed: each table is read in keyset batches (id > last id, in id
 *   order) and each batch is written into fflate's streaming zip and sent
 *   before the next is read; a table is never held in memory whole.
 * - CSV per RFC 4180 (comma, CRLF, quotes where needed), UTF-8 with a
 *   byte-order mark so Excel reads č, ć, đ, š, ž; one header row of the
 *   column names. Values are PostgreSQL's own text: money the exact decimal
 *   (1234.50), days YYYY-MM-DD, instants ISO 8601 in UTC, JSON as JSON,
 *   booleans true/false, NULL an empty field.
 * - Not in it: credentials and secrets (password hashes, TOTP secrets,
 *   sessions, one-time links, integration credentials, email tracking
 *   tokens), file bytes (documents.csv holds the metadata and checksum), and
 *   the technical tables listed in NOT_EXPORTED.
 * - Logged: one data_exported row (who, when, the row count of each file).
 */

export interface ExportedTable {
  table: string;
  /** Exactly these columns, for tables that hold secrets: a column added later stays out until listed. */
  columns?: readonly string[];
  /** Every column but these. */
  omit?: readonly string[];
}

export const BOOK_TABLES: readonly ExportedTable[] = [
  { table: 'clients' },
  { table: 'customers' },
  { table: 'agreements' },
  { table: 'invoices' },
  { table: 'invoice_lines' },
  { table: 'invoice_disputes' },
  { table: 'credit_notes' },
  { table: 'debtor_notices' },
  // The token hash is the emailed link's credential.
  { table: 'debtor_links', omit: ['token_hash'] },
  { table: 'debtor_answers' },
  { table: 'client_ledger' },
  { table: 'ledger_adjustments' },
  { table: 'payments' },
  { table: 'payouts' },
  { table: 'bank_statements' },
  { table: 'bank_statement_entries' },
  { table: 'credit_limit_requests' },
  { table: 'write_off_requests' },
  { table: 'risk_assessments' },
  // Reminders to debtors and the holds on them (docs/collections.md#dunning).
  { table: 'dunning_notices' },
  { table: 'dunning_holds' },
  // Where the bytes sit in our object store says nothing to a reader; the checksum identifies them.
  { table: 'documents', omit: ['storage_key'] },
  // What staff asked an applicant for; the token hash is the emailed link's credential.
  { table: 'kyc_document_requests', omit: ['token_hash'] },
  { table: 'outgoing_einvoices' },
  { table: 'incoming_einvoices' },
  { table: 'tasks' },
  { table: 'workflow_definitions' },
  { table: 'workflow_instances' },
  { table: 'workflow_step_runs' },
  { table: 'email_templates' },
  { table: 'email_campaigns' },
  // The tracking token is a capability: whoever has it can mark the mail opened or clicked.
  { table: 'email_logs', omit: ['tracking_token'] },
  { table: 'email_attachments' },
  { table: 'users', columns: ['id', 'email', 'first_name', 'last_name', 'role', 'is_active', 'otp_enabled', 'last_login_at', 'created_at', 'updated_at'] },
  {
    table: 'integrations',
    columns: ['id', 'name', 'description', 'type', 'status', 'mode', 'is_enabled', 'endpoint', 'last_check', 'last_sync', 'error_count', 'last_error', 'created_at', 'updated_at'],
  },
  { table: 'integration_logs' },
  { table: 'activity_logs' },
];

/** Every other table of the schema, and why it is not part of the book (a test keeps this list complete). */
export const NOT_EXPORTED: Readonly<Record<string, string>> = {
  sessions: 'sign-in sessions are credentials',
  user_tokens: 'one-time set-password links are credentials',
  login_throttle: 'counters of failed sign-ins',
  upload_objects: "the registration wizard's upload quarantine",
  registration_drafts: 'unsubmitted wizard drafts; a submitted one became a client',
  registration_draft_files: 'files of unsubmitted wizard drafts',
  registration_rate_limits: "counters of the wizard's rate limit",
  outgoing_einvoice_counters: 'the numbering counter; the numbers are in outgoing_einvoices',
  invoice_status_deltas: 'running totals derived from invoices',
  invoice_day_deltas: 'running totals derived from invoices',
  invoice_payable_deltas: 'running totals derived from invoices',
  open_book_changes: "the factor's open book per invoice and day, derived from the ledger, the credit notes and the invoices",
  open_book_totals: 'running totals derived from open_book_changes',
  open_book_deltas: 'running totals derived from open_book_changes',
  client_advance_changes: "running totals derived from the clients' ledger",
  client_book_deltas: 'running totals derived from clients',
  client_month_starts: 'the months whose dashboard figure the database keeps',
  client_month_start_deltas: "running totals derived from clients and their ledger's advance changes",
  workflow_instance_deltas: 'running totals derived from workflow_instances',
  workflow_finish_month_deltas: 'running totals derived from workflow_instances',
  open_task_deltas: 'running counts derived from tasks',
  email_log_deltas: 'running counts derived from email_logs',
  worker_heartbeats: 'liveness of worker processes',
  schema_migrations: 'the migration bookkeeping',
  install_steps: 'the installation bookkeeping (which one-time steps have run)',
  backups: 'the list of backup files',
  book_settings: "the book's settings (shown on /settings); every change of them is in activity_logs",
};

/** Rows read per query: small enough to keep memory flat, large enough that round trips do not dominate. */
export const BATCH_ROWS = 5_000;

/** Each column as text exactly as it is stored, whatever the server's settings (the snapshot fixes UTC and ISO dates). */
function textOf(column: CatalogColumn): string {
  const name = quoteIdent(column.name);
  if (column.type === 'timestamp with time zone') return `to_char(${name}, 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS ${name}`;
  if (column.type.endsWith('[]')) return `array_to_json(${name})::text AS ${name}`;
  return `${name}::text AS ${name}`;
}

/** One keyset page: the rows after $1 (when `after`) in id order, each column as text, and the id to continue from. */
export function batchSql(table: string, columns: CatalogColumn[], after: boolean, limit: number): string {
  // src.id, not id: the output column "id" is its text, and ordering by that would sort the whole table for every page.
  return `SELECT ${columns.map(textOf).join(', ')}, src.id::text AS "__key" FROM ${quoteIdent(table)} AS src
           ${after ? 'WHERE src.id > $1' : ''} ORDER BY src.id LIMIT ${limit}`;
}

interface PlannedFile {
  table: string;
  file: string;
  columns: CatalogColumn[];
  rows: number;
}

async function planExport(snapshot: Snapshot): Promise<PlannedFile[]> {
  const catalog = await publicTables(snapshot);
  const planned: PlannedFile[] = [];
  // A table of a later migration than this database has is simply absent.
  for (const spec of BOOK_TABLES.filter((entry) => catalog.has(entry.table))) {
    const all = catalog.get(spec.table)!;
    if (!all.some((column) => column.name === 'id')) throw new Error(`exported table ${spec.table} has no id column to page by`);
    const columns = spec.columns
      ? spec.columns.map((name) => {
          const column = all.find((candidate) => candidate.name === name);
          if (!column) throw new Error(`exported column ${spec.table}.${name} does not exist`);
          return column;
        })
      : all.filter((column) => !spec.omit?.includes(column.name));
    const [{ count }] = await snapshot.query<{ count: string }>(`SELECT count(*) AS count FROM ${quoteIdent(spec.table)}`);
    planned.push({ table: spec.table, file: `${spec.table}.csv`, columns, rows: Number(count) });
  }
  return planned;
}

export interface BookExport {
  fileName: string;
  /** Row count per file, as logged. */
  files: Record<string, number>;
  stream: ReadableStream<Uint8Array>;
}

/**
 * Opens the snapshot, logs the export and returns the zip as a stream that
 * reads the tables while it is consumed. `signal` (the request's) stops the
 * reading and releases the snapshot when the client goes away.
 */
export async function exportBook({
  actor,
  ip,
  signal,
  batchRows = BATCH_ROWS,
}: {
  actor: PublicUser;
  ip?: string | null;
  signal?: AbortSignal;
  batchRows?: number;
}): Promise<BookExport> {
  assertCan(actor, 'export:data');
  const snapshot = await openSnapshot('finflow-book-export');
  let plan: PlannedFile[];
  let files: Record<string, number>;
  let at: { day: string; instant: string };
  try {
    plan = await planExport(snapshot);
    [at] = await snapshot.query<{ day: string; instant: string }>(
      `SELECT to_char(${sqlBusinessLocal('now()')}, 'YYYY-MM-DD') AS day, to_char(now(), 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS instant`,
    );
    files = Object.fromEntries(plan.map((entry) => [entry.file, entry.rows]));
    // Its own short transaction: the snapshot is read only, and the export happened whether or not the download completes.
    await inTransaction((transaction) =>
      logActivity({ action: 'data_exported', userId: actor.id, ipAddress: ip ?? null, details: { format: 'csv-zip', snapshotAt: at.instant, files } }, transaction),
    );
  } catch (error) {
    await snapshot.close();
    throw error;
  }

  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let produced = 0;
  const zip = new Zip((error, chunk, final) => {
    if (error) return fail(error);
    if (chunk.length > 0) {
      produced += 1;
      controller.enqueue(chunk);
    }
    if (final) {
      controller.close();
      void snapshot.close();
    }
  });
  let failed = false;
  const fail = (error: unknown) => {
    if (failed) return;
    failed = true;
    // A client that went away is not an error of ours.
    if (!signal?.aborted) console.error(`[finflow] book export failed: ${error instanceof Error ? error.message : String(error)}`);
    void snapshot.close();
    controller.error(error);
  };

  // The work, one step per call: a table's header, one batch of rows, or the closing manifest.
  let tableIndex = 0;
  let entry: ZipDeflate | null = null;
  let lastId: string | null = null;
  let finished = false;
  const step = async () => {
    if (tableIndex === plan.length) {
      const manifest = {
        format: 'finflow-book-export',
        appVersion: packageJson.version,
        snapshotAt: at.instant,
        csv: 'RFC 4180, UTF-8 with BOM, header row; NULL is an empty field; instants ISO 8601 UTC',
        files: plan.map((file) => ({ file: file.file, table: file.table, rows: file.rows, columns: file.columns.map((column) => column.name) })),
      };
      const part = new ZipDeflate('manifest.json', { level: 6 });
      zip.add(part);
      part.push(strToU8(JSON.stringify(manifest, null, 2)), true);
      finished = true;
      zip.end();
      return;
    }
    const file = plan[tableIndex];
    if (!entry) {
      entry = new ZipDeflate(file.file, { level: 6 });
      zip.add(entry);
      entry.push(strToU8(CSV_BOM + csvRecord(file.columns.map((column) => column.name))));
      lastId = null;
      return;
    }
    const rows = await snapshot.query<Record<string, string | null>>(batchSql(file.table, file.columns, lastId !== null, batchRows), lastId === null ? [] : [lastId]);
    if (signal?.aborted) throw signal.reason ?? new Error('aborted');
    const text = rows.map((row) => csvRecord(file.columns.map((column) => row[column.name]))).join('');
    const last = rows.length < batchRows;
    entry.push(strToU8(text), last);
    if (last) {
      entry = null;
      tableIndex += 1;
    } else {
      lastId = rows[rows.length - 1].__key!;
    }
  };

  const stream = new ReadableStream<Uint8Array>(
    {
      start(streamController) {
        controller = streamController;
      },
      // Deflate holds small inputs back; keep working until something came out, or a pull could wait forever.
      async pull() {
        const before = produced;
        try {
          while (produced === before && !finished && !failed) await step();
        } catch (error) {
          fail(error);
        }
      },
      async cancel() {
        await snapshot.close();
      },
    },
    { highWaterMark: 4 },
  );
  signal?.addEventListener('abort', () => void snapshot.close(), { once: true });
  return { fileName: `finflow-book-${at.day}.zip`, files, stream };
}
