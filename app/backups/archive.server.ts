import { createHash, type Hash } from 'node:crypto';
import { once } from 'node:events';
import fs from 'node:fs';
import { Unzip, UnzipInflate, Zip, ZipDeflate, strFromU8, strToU8 } from 'fflate';
import pgCopyStreams from 'pg-copy-streams';
import packageJson from '../../package.json';
import { publicTables, quoteIdent, type Snapshot } from '../exports/snapshot.server.ts';

/**
 * The backup file: a zip (readable with any unzip tool) holding
 *
 *   manifest.json              written first: format, app version, created_at,
 *                              the applied migrations, every table with its
 *                              columns and row count (in foreign-key order),
 *                              and the sequences' values
 *   data/<table>/0001.copy     each table's rows in PostgreSQL's COPY text
 *                              format, as COPY … TO STDOUT wrote them; a table
 *                              larger than PART_BYTES continues in 0002, …
 *                              (split between rows)
 *   SHA256SUMS                 written last: the SHA-256 of manifest.json and
 *                              of every part, as `sha256sum -c` reads it
 *
 * Written in one pass from one REPEATABLE READ snapshot; read back in one
 * pass by the restore (restore.server.ts), which loads each table with COPY
 * FROM in the manifest's order, so parents come before children.
 */
export const BACKUP_FORMAT = 'finflow-backup';
export const BACKUP_FORMAT_VERSION = 1;

/** Tables not in a backup: the restore's migrations fill the first; the others are about this installation, not its data. */
export const NOT_BACKED_UP: Readonly<Record<string, string>> = {
  schema_migrations: 'written by the migrations the restore runs first',
  backups: 'describes files in this DATA_DIR, which a restored database does not have',
  sessions: 'sign-ins end with a restore; everybody signs in again',
  worker_heartbeats: 'liveness of the worker processes of this installation',
};

/** A part is closed at the first row end past this many bytes, keeping each zip entry far below the format's 4 GiB. */
export const PART_BYTES = 256 * 1024 * 1024;
/** fflate writes classic (not ZIP64) archives: offsets and sizes must stay below 4 GiB. */
const ZIP_LIMIT = 0xffff_ffff - 1024 * 1024;

export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  formatVersion: number;
  appVersion: string;
  createdAt: string;
  postgresVersion: string;
  /** The umzug migrations applied, in order. */
  migrations: string[];
  /** In foreign-key order: every table after the tables it references. */
  tables: Array<{ name: string; columns: string[]; rows: number }>;
  sequences: Array<{ name: string; lastValue: string | null }>;
}

export class BackupFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupFileError';
  }
}

export const partName = (table: string, index: number) => `data/${table}/${String(index).padStart(4, '0')}.copy`;
const PART = /^data\/([a-z_][a-z0-9_]*)\/(\d{4})\.copy$/;
export function parsePartName(name: string): { table: string; index: number } | null {
  const match = PART.exec(name);
  return match ? { table: match[1], index: Number(match[2]) } : null;
}

/** Foreign keys between the public tables: child → the tables it references (self-references left out). */
export async function foreignKeyParents(query: Snapshot['query']): Promise<Map<string, Set<string>>> {
  const rows = await query<{ child: string; parent: string }>(
    `SELECT child.relname AS child, parent.relname AS parent
       FROM pg_constraint k
       JOIN pg_class child ON child.oid = k.conrelid
       JOIN pg_class parent ON parent.oid = k.confrelid
      WHERE k.contype = 'f' AND child.relnamespace = 'public'::regnamespace AND parent.relnamespace = 'public'::regnamespace`,
  );
  const parents = new Map<string, Set<string>>();
  for (const { child, parent } of rows) {
    if (child === parent) continue; // rows of one COPY are checked at its end, so a self-reference needs no order
    if (!parents.has(child)) parents.set(child, new Set());
    parents.get(child)!.add(parent);
  }
  return parents;
}

/** The tables in an order where each comes after those it references; alphabetical where free. Throws on a cycle. */
export function foreignKeyOrder(tables: string[], parents: Map<string, Set<string>>): string[] {
  const remaining = new Set(tables);
  const ordered: string[] = [];
  while (remaining.size > 0) {
    const ready = [...remaining].filter((table) => [...(parents.get(table) ?? [])].every((parent) => !remaining.has(parent))).sort();
    if (ready.length === 0) throw new BackupFileError(`Foreign keys form a cycle between ${[...remaining].sort().join(', ')}; no load order exists`);
    for (const table of ready) {
      ordered.push(table);
      remaining.delete(table);
    }
  }
  return ordered;
}

/** What the writer reports as it goes (the job touches its row with it, so a live backup is told from a dead one). */
export type Progress = (done: { table: string; rows: number }) => void;

export interface WrittenBackup {
  manifest: BackupManifest;
  size: number;
  sha256: string;
}

/**
 * Writes the backup of `snapshot`'s database to `target` (created, never
 * overwritten). Reads each table with COPY TO STDOUT and compresses it as it
 * arrives; memory stays flat whatever the size of the book.
 */
export async function writeBackup(
  snapshot: Snapshot,
  target: string,
  { onProgress = () => {}, partBytes = PART_BYTES }: { onProgress?: Progress; partBytes?: number } = {},
): Promise<WrittenBackup> {
  const catalog = await publicTables(snapshot);
  const names = [...catalog.keys()].filter((name) => !Object.hasOwn(NOT_BACKED_UP, name));
  const order = foreignKeyOrder(names, await foreignKeyParents(snapshot.query));
  const tables: BackupManifest['tables'] = [];
  for (const name of order) {
    const [{ count }] = await snapshot.query<{ count: string }>(`SELECT count(*) AS count FROM ${quoteIdent(name)}`);
    // Generated columns are computed again on load; COPY FROM refuses values for them.
    const columns = catalog
      .get(name)!
      .filter((column) => !column.generated)
      .map((column) => column.name);
    tables.push({ name, columns, rows: Number(count) });
  }
  const [info] = await snapshot.query<{ created_at: string; version: string }>(
    `SELECT to_char(now(), 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS created_at, current_setting('server_version') AS version`,
  );
  const manifest: BackupManifest = {
    format: BACKUP_FORMAT,
    formatVersion: BACKUP_FORMAT_VERSION,
    appVersion: packageJson.version,
    createdAt: info.created_at,
    postgresVersion: info.version,
    migrations: (await snapshot.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name')).map((row) => row.name),
    tables,
    // Sequences are not transactional: a value read now is at least what any row of the snapshot used.
    sequences: (
      await snapshot.query<{ name: string; last_value: string | null }>(
        `SELECT sequencename AS name, last_value::text AS last_value FROM pg_sequences WHERE schemaname = 'public' ORDER BY sequencename`,
      )
    ).map((row) => ({ name: row.name, lastValue: row.last_value })),
  };

  const out = fs.createWriteStream(target, { flags: 'wx', mode: 0o600 });
  const opened = once(out, 'open');
  const fileHash = createHash('sha256');
  let size = 0;
  let failure: Error | null = null;
  const zip = new Zip((error, chunk) => {
    if (error) failure ??= error;
    if (failure || chunk.length === 0) return;
    size += chunk.length;
    if (size > ZIP_LIMIT) failure = new BackupFileError('The backup would exceed 4 GiB, which its zip format cannot hold; back this database up with pg_dump instead');
    fileHash.update(chunk);
    out.write(chunk);
  });
  const settle = async () => {
    if (failure) throw failure;
    if (out.writableNeedDrain) await once(out, 'drain');
  };
  const sums: string[] = [];
  const addEntry = (name: string) => {
    const entry = new ZipDeflate(name, { level: 6 });
    zip.add(entry);
    return entry;
  };

  try {
    await opened;
    const manifestBytes = strToU8(JSON.stringify(manifest, null, 2));
    addEntry('manifest.json').push(manifestBytes, true);
    sums.push(`${createHash('sha256').update(manifestBytes).digest('hex')}  manifest.json`);
    await settle();

    for (const table of manifest.tables) {
      let index = 1;
      let entry = addEntry(partName(table.name, index));
      let hash: Hash = createHash('sha256');
      let written = 0;
      let lines = 0;
      const close = () => {
        entry.push(new Uint8Array(0), true);
        sums.push(`${hash.digest('hex')}  ${partName(table.name, index)}`);
      };
      const write = (bytes: Uint8Array) => {
        if (bytes.length === 0) return;
        hash.update(bytes);
        written += bytes.length;
        entry.push(bytes);
      };
      const copy = snapshot.client.query(pgCopyStreams.to(`COPY ${quoteIdent(table.name)} (${table.columns.map(quoteIdent).join(', ')}) TO STDOUT`));
      for await (const chunk of copy as AsyncIterable<Buffer>) {
        for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines += 1;
        // Each row is one line (COPY escapes line breaks inside values), so a row end is a safe place to split.
        const cut = written + chunk.length > partBytes ? chunk.lastIndexOf(10) : -1;
        if (cut === -1) {
          write(chunk);
        } else {
          write(chunk.subarray(0, cut + 1));
          close();
          index += 1;
          entry = addEntry(partName(table.name, index));
          hash = createHash('sha256');
          written = 0;
          write(chunk.subarray(cut + 1));
        }
        await settle();
      }
      close();
      await settle();
      // The snapshot counted them before; COPY must have written exactly as many rows.
      if (lines !== table.rows) throw new BackupFileError(`${table.name}: COPY wrote ${lines} rows, the snapshot counted ${table.rows}`);
      onProgress({ table: table.name, rows: table.rows });
    }

    addEntry('SHA256SUMS').push(strToU8(`${sums.join('\n')}\n`), true);
    zip.end();
    await settle();
    out.end();
    await once(out, 'finish');
    // On disk before anyone is told it is complete.
    const handle = await fs.promises.open(target, 'r');
    await handle.sync().finally(() => handle.close());
  } catch (error) {
    out.destroy();
    await fs.promises.rm(target, { force: true });
    throw error;
  }
  return { manifest, size, sha256: fileHash.digest('hex') };
}

/** One event of a backup file read in order: an entry begins, some of its bytes, it ends. */
export type BackupEvent = { kind: 'start'; name: string } | { kind: 'data'; name: string; bytes: Uint8Array } | { kind: 'end'; name: string };

/**
 * Reads a backup file entry by entry in one pass, without holding more than a
 * small read's worth of inflated bytes: the file is read a little at a time,
 * only when the consumer has taken everything the last read produced.
 */
export async function* readBackupEvents(file: string): AsyncGenerator<BackupEvent> {
  const queue: BackupEvent[] = [];
  let failure: Error | null = null;
  const unzip = new Unzip((entry) => {
    queue.push({ kind: 'start', name: entry.name });
    entry.ondata = (error, bytes, final) => {
      if (error) {
        failure ??= new BackupFileError(`${entry.name}: ${error.message}`);
        return;
      }
      if (bytes.length > 0) queue.push({ kind: 'data', name: entry.name, bytes });
      if (final) queue.push({ kind: 'end', name: entry.name });
    };
    try {
      entry.start();
    } catch (error) {
      failure ??= new BackupFileError(`${entry.name}: ${(error as Error).message}`);
    }
  });
  unzip.register(UnzipInflate);
  const input = fs.createReadStream(file, { highWaterMark: 16 * 1024 });
  try {
    for await (const chunk of input as AsyncIterable<Buffer>) {
      try {
        unzip.push(chunk);
      } catch (error) {
        throw new BackupFileError(`Not a readable backup file: ${(error as Error).message}`);
      }
      if (failure) throw failure;
      while (queue.length > 0) yield queue.shift()!;
    }
    unzip.push(new Uint8Array(0), true);
    if (failure) throw failure;
    while (queue.length > 0) yield queue.shift()!;
  } finally {
    input.destroy();
  }
}

/** The manifest, read from the start of the file (it is the first entry); refuses anything that is not a FinFlow backup. */
export async function readManifest(file: string): Promise<{ manifest: BackupManifest; bytes: Uint8Array }> {
  const chunks: Uint8Array[] = [];
  for await (const event of readBackupEvents(file)) {
    if (event.kind === 'start' && event.name !== 'manifest.json') break;
    if (event.kind === 'data') chunks.push(event.bytes);
    if (event.kind === 'end') {
      const bytes = Buffer.concat(chunks);
      let manifest: BackupManifest;
      try {
        manifest = JSON.parse(strFromU8(bytes)) as BackupManifest;
      } catch {
        throw new BackupFileError('manifest.json is not valid JSON');
      }
      if (manifest.format !== BACKUP_FORMAT) throw new BackupFileError('Not a FinFlow backup (manifest.json has another format)');
      if (manifest.formatVersion !== BACKUP_FORMAT_VERSION) {
        throw new BackupFileError(`Backup format version ${manifest.formatVersion} is not ${BACKUP_FORMAT_VERSION}, which this FinFlow reads`);
      }
      return { manifest, bytes };
    }
  }
  throw new BackupFileError('Not a FinFlow backup: manifest.json is not its first entry');
}
