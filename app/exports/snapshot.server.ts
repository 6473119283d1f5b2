import pg from 'pg';

/**
 * One consistent, read-only view of the whole database for exports and
 * backups: a dedicated connection (not one of the pool's, which a long export
 * would hold for minutes) inside a REPEATABLE READ READ ONLY transaction, so
 * every table is read as of the same instant however long the reading takes,
 * and nothing can be written through it. Text output is made independent of
 * the server's settings (UTC, ISO dates).
 */
export interface Snapshot {
  client: pg.Client;
  query<T extends pg.QueryResultRow>(sql: string, values?: unknown[]): Promise<T[]>;
  /** Ends the transaction and the connection; safe to call more than once. */
  close(): Promise<void>;
}

export async function openSnapshot(applicationName = 'finflow-snapshot'): Promise<Snapshot> {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is not set; start FinFlow with `npm start`, which provides it.');
  const client = new pg.Client({ connectionString: url, application_name: applicationName });
  await client.connect();
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      // Read only: rolling back and committing are the same; ROLLBACK also works after an error.
      await client.query('ROLLBACK').catch(() => {});
      await client.end().catch(() => {});
    })());
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    await client.query(`SET LOCAL TimeZone = 'UTC'`);
    await client.query(`SET LOCAL DateStyle = 'ISO, YMD'`);
    // A long export must not be cut by a server-wide statement or idle timeout.
    await client.query('SET LOCAL statement_timeout = 0');
    await client.query('SET LOCAL idle_in_transaction_session_timeout = 0');
  } catch (error) {
    await close();
    throw error;
  }
  return {
    client,
    query: async <T extends pg.QueryResultRow>(sql: string, values?: unknown[]) => (await client.query<T>(sql, values)).rows,
    close,
  };
}

/** A column of a table as the catalogue describes it, in table order. */
export interface CatalogColumn {
  name: string;
  /** format_type(), e.g. 'numeric(15,2)', 'timestamp with time zone', 'uuid[]'. */
  type: string;
  generated: boolean;
}

/** Every ordinary table of the public schema with its columns, in the snapshot. */
export async function publicTables(snapshot: Pick<Snapshot, 'query'>): Promise<Map<string, CatalogColumn[]>> {
  const rows = await snapshot.query<{ table: string; column: string; type: string; generated: boolean }>(
    `SELECT c.relname AS table, a.attname AS column, format_type(a.atttypid, a.atttypmod) AS type, a.attgenerated <> '' AS generated
       FROM pg_class c
       JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
      WHERE c.relnamespace = 'public'::regnamespace AND c.relkind = 'r'
      ORDER BY c.relname, a.attnum`,
  );
  const tables = new Map<string, CatalogColumn[]>();
  for (const row of rows) {
    const columns = tables.get(row.table) ?? [];
    columns.push({ name: row.column, type: row.type, generated: row.generated });
    tables.set(row.table, columns);
  }
  return tables;
}

/** A double-quoted SQL identifier. */
export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
