import { createHash, type Hash } from 'node:crypto';
import { once } from 'node:events';
import pg from 'pg';
import pgCopyStreams from 'pg-copy-streams';
import { createSequelize } from '../../db/connection.ts';
import { migrateUp } from '../../db/migrate.ts';
import { quoteIdent } from '../exports/snapshot.server.ts';
import { BackupFileError, foreignKeyParents, parsePartName, readBackupEvents, readManifest, type BackupManifest } from './archive.server.ts';

/**
 * `npm run restore -- <file>` (scripts/restore.ts): loads a backup file
 * (archive.server.ts) into an EMPTY database.
 *
 * 1. Reads the manifest; refuses anything that is not a FinFlow backup.
 * 2. Runs the migrations, then refuses unless the applied list is exactly the
 *    backup's (the schema the rows were taken from) and every table the
 *    backup holds exists, with the same columns, and is empty.
 * 3. In ONE transaction: locks those tables, loads each with COPY FROM in the
 *    file's order (parents before children, checked against this schema's
 *    foreign keys) with their triggers off, checks every part's SHA-256
 *    against SHA256SUMS, sets the sequences, and compares each table's row
 *    count with the manifest. Any failure rolls everything back, leaving the
 *    database as empty as it was.
 */
export class RestoreError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RestoreError';
  }
}

export interface RestoreResult {
  manifest: BackupManifest;
  tables: number;
  rows: number;
}

function listDifference(expected: string[], actual: string[]) {
  return { missing: expected.filter((name) => !actual.includes(name)), extra: actual.filter((name) => !expected.includes(name)) };
}

export async function restoreBackup({ databaseUrl, file, log = () => {} }: { databaseUrl: string; file: string; log?: (line: string) => void }): Promise<RestoreResult> {
  const { manifest, bytes: manifestBytes } = await readManifest(file).catch((error: unknown) => {
    if (error instanceof BackupFileError) throw new RestoreError(error.message);
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new RestoreError(`No such file: ${file}`);
    throw error;
  });
  log(`backup of ${manifest.createdAt} (FinFlow ${manifest.appVersion}, ${manifest.migrations.length} migrations, ${manifest.tables.length} tables)`);

  const sequelize = createSequelize(databaseUrl, { poolMax: 2 });
  try {
    await migrateUp(sequelize, (line) => log(`migrations: ${line}`));
  } finally {
    await sequelize.close();
  }

  const client = new pg.Client({ connectionString: databaseUrl, application_name: 'finflow-restore' });
  await client.connect();
  const query = async <T extends pg.QueryResultRow>(sql: string, values?: unknown[]) => (await client.query<T>(sql, values)).rows;
  try {
    await client.query('BEGIN');
    await client.query('SET LOCAL statement_timeout = 0');

    const applied = (await query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name')).map((row) => row.name);
    const migrations = listDifference(manifest.migrations, applied);
    if (migrations.missing.length > 0 || migrations.extra.length > 0) {
      throw new RestoreError(
        [
          `The backup was taken at another migration level than this FinFlow's (backup: FinFlow ${manifest.appVersion}).`,
          migrations.missing.length ? `  In the backup, not here: ${migrations.missing.join(', ')}` : '',
          migrations.extra.length ? `  Here, not in the backup: ${migrations.extra.join(', ')}` : '',
          '  Restore with the FinFlow version that made the backup, then upgrade.',
        ]
          .filter(Boolean)
          .join('\n'),
      );
    }

    const columns = await query<{ table: string; column: string }>(
      `SELECT c.relname AS table, a.attname AS column FROM pg_class c
         JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
        WHERE c.relnamespace = 'public'::regnamespace AND c.relkind = 'r'`,
    );
    for (const table of manifest.tables) {
      const here = columns.filter((row) => row.table === table.name).map((row) => row.column);
      if (here.length === 0) throw new RestoreError(`Table ${table.name} of the backup does not exist in this database`);
      const difference = listDifference(table.columns, here);
      if (difference.missing.length || difference.extra.length) {
        throw new RestoreError(
          `Table ${table.name} has other columns here than in the backup (missing: ${difference.missing.join(', ') || '-'}; extra: ${difference.extra.join(', ') || '-'})`,
        );
      }
    }

    const sequences = (await query<{ name: string }>(`SELECT sequencename AS name FROM pg_sequences WHERE schemaname = 'public'`)).map((row) => row.name);
    const missingSequences = manifest.sequences.map((sequence) => sequence.name).filter((name) => !sequences.includes(name));
    if (missingSequences.length > 0) throw new RestoreError(`Sequences of the backup do not exist in this database: ${missingSequences.join(', ')}`);

    // Nobody may write to these tables while they are loaded; then, empty means empty.
    await client.query(`LOCK TABLE ${manifest.tables.map((table) => quoteIdent(table.name)).join(', ')} IN EXCLUSIVE MODE`);
    const occupied: string[] = [];
    for (const table of manifest.tables) {
      const [{ present }] = await query<{ present: boolean }>(`SELECT EXISTS (SELECT 1 FROM ${quoteIdent(table.name)}) AS present`);
      if (present) occupied.push(table.name);
    }
    if (occupied.length > 0) {
      throw new RestoreError(
        `The database is not empty (rows in ${occupied.join(', ')}). A backup is restored into an empty database: ` +
          'use a new DATA_DIR (or a new database in DATABASE_URL) and run the restore before the first `npm start`.',
      );
    }

    const parents = await foreignKeyParents(query);
    const position = new Map(manifest.tables.map((table, index) => [table.name, index]));
    for (const table of manifest.tables) {
      for (const parent of parents.get(table.name) ?? []) {
        if (position.has(parent) && position.get(parent)! > position.get(table.name)!) {
          throw new RestoreError(`The backup loads ${table.name} before ${parent}, which it references`);
        }
      }
    }

    // The rows are restored as they were, derived ones included (e.g. summaries that triggers keep): triggers
    // must not add to them now. DISABLE TRIGGER USER needs only ownership, and foreign keys stay checked.
    for (const table of manifest.tables) await client.query(`ALTER TABLE ${quoteIdent(table.name)} DISABLE TRIGGER USER`);
    await loadTables({ client, file, manifest, manifestBytes, log });
    for (const table of manifest.tables) await client.query(`ALTER TABLE ${quoteIdent(table.name)} ENABLE TRIGGER USER`);

    for (const sequence of manifest.sequences) {
      if (sequence.lastValue !== null) await client.query('SELECT setval($1::regclass, $2::bigint, true)', [quoteIdent(sequence.name), sequence.lastValue]);
    }

    let rows = 0;
    for (const table of manifest.tables) {
      const [{ count }] = await query<{ count: string }>(`SELECT count(*) AS count FROM ${quoteIdent(table.name)}`);
      if (Number(count) !== table.rows) throw new RestoreError(`${table.name}: ${count} rows loaded, the manifest says ${table.rows}`);
      rows += table.rows;
    }
    await client.query('COMMIT');
    log(`restored ${rows} rows in ${manifest.tables.length} tables`);
    return { manifest, tables: manifest.tables.length, rows };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    if (error instanceof BackupFileError) throw new RestoreError(error.message);
    throw error;
  } finally {
    await client.end().catch(() => {});
  }
}

/** Streams every part into its table's COPY FROM and checks the file against SHA256SUMS as it goes. */
async function loadTables({
  client,
  file,
  manifest,
  manifestBytes,
  log,
}: {
  client: pg.Client;
  file: string;
  manifest: BackupManifest;
  manifestBytes: Uint8Array;
  log: (line: string) => void;
}) {
  const hashes = new Map<string, string>([['manifest.json', createHash('sha256').update(manifestBytes).digest('hex')]]);
  const tables = new Map(manifest.tables.map((table) => [table.name, table]));
  const loaded: string[] = [];
  let copy: (NodeJS.WritableStream & { writableNeedDrain: boolean }) | null = null;
  let copyDone: Promise<unknown> | null = null;
  let current: { table: string; index: number } | null = null;
  let hash: Hash | null = null;
  let sums: Buffer[] | null = null;

  const finishCopy = async () => {
    if (!copy) return;
    copy.end();
    await copyDone;
    log(`loaded ${current!.table}`);
    copy = null;
  };

  for await (const event of readBackupEvents(file)) {
    if (event.kind === 'start') {
      if (event.name === 'manifest.json') continue;
      if (event.name === 'SHA256SUMS') {
        await finishCopy();
        sums = [];
        continue;
      }
      const part = parsePartName(event.name);
      if (!part || !tables.has(part.table)) throw new RestoreError(`Unexpected entry ${event.name} in the backup`);
      if (current?.table === part.table) {
        if (part.index !== current.index + 1) throw new RestoreError(`${event.name} is out of order`);
      } else {
        await finishCopy();
        const expected = manifest.tables[loaded.length];
        if (part.table !== expected?.name || part.index !== 1)
          throw new RestoreError(`${event.name} is out of order (expected ${expected ? `${expected.name}'s first part` : 'no more tables'})`);
        loaded.push(part.table);
        const columns = tables.get(part.table)!.columns.map(quoteIdent).join(', ');
        const stream = client.query(pgCopyStreams.from(`COPY ${quoteIdent(part.table)} (${columns}) FROM STDIN`));
        copy = stream;
        // Settles when PostgreSQL has taken every row (or refused one).
        const table = part.table;
        copyDone = new Promise((resolve, reject) => {
          stream.on('finish', resolve);
          stream.on('error', (error: Error) => reject(new RestoreError(`Loading ${table} failed: ${error.message}`)));
        });
        copyDone.catch(() => {}); // observed when awaited; an early error must not be unhandled meanwhile
      }
      current = part;
      hash = createHash('sha256');
      continue;
    }
    if (event.kind === 'data') {
      if (sums) sums.push(Buffer.from(event.bytes));
      else if (event.name !== 'manifest.json') {
        hash!.update(event.bytes);
        if (!copy!.write(event.bytes)) await Promise.race([once(copy as unknown as NodeJS.EventEmitter, 'drain'), copyDone]);
      }
      continue;
    }
    if (event.name !== 'manifest.json' && event.name !== 'SHA256SUMS') hashes.set(event.name, hash!.digest('hex'));
  }
  await finishCopy();

  if (!sums) throw new RestoreError('The backup has no SHA256SUMS: it is incomplete');
  if (loaded.length !== manifest.tables.length) throw new RestoreError(`The backup holds ${loaded.length} of the manifest's ${manifest.tables.length} tables: it is incomplete`);
  const listed = new Map(
    Buffer.concat(sums)
      .toString('utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const match = /^([0-9a-f]{64}) {2}(.+)$/.exec(line);
        if (!match) throw new RestoreError(`SHA256SUMS has a malformed line: ${line}`);
        return [match[2], match[1]] as const;
      }),
  );
  const names = new Set([...listed.keys(), ...hashes.keys()]);
  for (const name of names) {
    if (listed.get(name) !== hashes.get(name)) throw new RestoreError(`${name} does not match its SHA-256 in SHA256SUMS: the file is damaged`);
  }
}
