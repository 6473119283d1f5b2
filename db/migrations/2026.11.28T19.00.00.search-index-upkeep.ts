import type { Migration } from '../migrate.ts';

/**
 * Searches read their GIN indexes alone, whatever was written just before.
 *
 * With `fastupdate` on (PostgreSQL's default) a GIN index puts new entries in
 * a pending list that every search scans in full until a vacuum (or the list
 * reaching `gin_pending_list_limit`, 4 MB) merges it into the index. On the
 * 1,000,000-invoice book, 2,000 pending invoices doubled a description search
 * and made the number search a third slower (docs/benchmarks.md); on a book
 * taking invoices all day the list is never empty. Off, each insert files its
 * entries at once (a few dozen per invoice) and a search reads the index
 * only. Every GIN index of the schema is set here, and the entries already
 * pending are merged now; a GIN index added later sets it in its CREATE INDEX
 * (db/schema.test.ts checks every one).
 *
 * The number search's query for a term longer than an index piece (6
 * characters) asked for every piece of the term, one starting at each
 * character; the pieces overlap, so each one past the first narrows little
 * while GIN walks its whole posting list ('r-2025' is in half the book). Now
 * it asks for the pieces that cover the term: one every 6 characters and the
 * last one. The rows found are the same or a few more, and app/search.server.ts
 * keeps only the numbers that hold the term itself, as before.
 */

/** `statement` run for every GIN index of the schema, the index in `gin`. */
const forEveryGinIndex = (statement: string) => /* sql */ `
  DO $$
  DECLARE gin regclass;
  BEGIN
    FOR gin IN SELECT c.oid::regclass
                 FROM pg_class c JOIN pg_am a ON a.oid = c.relam JOIN pg_namespace n ON n.oid = c.relnamespace
                WHERE c.relkind = 'i' AND a.amname = 'gin' AND n.nspname = current_schema() LOOP
      ${statement}
    END LOOP;
  END $$;`;

/** Lexemes quoted for tsquery input: quotes doubled, backslashes escaped. */
const quoted = (piece: string) => `'''' || replace(replace(${piece}, '\\', '\\\\'), '''', '''''') || ''''`;

/** The number search's query: a prefix of the piece for a short term, else the pieces (`start`) that `pieces` lists. */
const fragmentFunction = (pieces: string) => /* sql */ `
  CREATE OR REPLACE FUNCTION invoice_number_fragment(term text) RETURNS tsquery
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
      SELECT CAST(CASE
               WHEN length(t) <= 6 THEN ${quoted('t')} || ':*'
               ELSE (SELECT string_agg(${quoted('substr(t, start, 6)')}, ' & ' ORDER BY start) FROM (${pieces}) AS pieces)
             END AS tsquery)
        FROM (SELECT lower(term) AS t) AS s
    $$;`;

export const up: Migration = async ({ context: db }) => {
  await db.query(forEveryGinIndex(`EXECUTE format('ALTER INDEX %s SET (fastupdate = off)', gin); PERFORM gin_clean_pending_list(gin);`));
  // One piece every 6 characters, and the last.
  await db.query(fragmentFunction('SELECT generate_series(1, length(t) - 6, 6) AS start UNION SELECT length(t) - 5'));
};

export const down: Migration = async ({ context: db }) => {
  await db.query(forEveryGinIndex(`EXECUTE format('ALTER INDEX %s RESET (fastupdate)', gin);`));
  // A piece starting at every character, as before this migration.
  await db.query(fragmentFunction('SELECT generate_series(1, length(t) - 5) AS start'));
};
