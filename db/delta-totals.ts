/**
 * Totals the database keeps for figures that would otherwise be counted over
 * rows that only grow (docs/domain-model.md lists them): statement triggers
 * on the source table append each statement's change per key to an
 * insert-only delta table, a figure is the sum of its key's rows, and the
 * hourly housekeeping folds them (`compact_<name>()`). Insert-only deltas mean
 * concurrent writers never wait on a shared counter row; keys whose changes
 * cancel out add nothing. A migration that adds such totals describes its
 * figures and creates them with `createDeltaTotals`. Shipped migrations run
 * this SQL: a change here reaches only databases created after it, so it must
 * create the same objects.
 */

export interface DeltaTotals {
  /** The table the figures are read from. */
  source: string;
  deltas: string;
  /** The trigger functions' and the fold's name part: `<name>_inserted()`, `compact_<name>()`. */
  name: string;
  /** The delta table's columns after its id: the key, then the summed figures. */
  columns: string;
  key: string;
  figures: string[];
  /** One row per row of `rows` (the key and each figure, times `sign`). */
  contribution: (rows: string, sign: 1 | -1) => string;
}

/** Adds the summed contributions of `source` per key. */
const addTotals = (totals: DeltaTotals, source: string) => `
  INSERT INTO ${totals.deltas} (${totals.key}, ${totals.figures.join(', ')})
    SELECT ${totals.key}, ${totals.figures.map((figure) => `sum(${figure})`).join(', ')} FROM (${source}) s
     GROUP BY ${totals.key} HAVING ${totals.figures.map((figure) => `sum(${figure}) <> 0`).join(' OR ')}`;

const TRIGGERS = [
  { event: 'INSERT', change: 'inserted', transition: 'NEW TABLE AS new_rows', rows: [['new_rows', 1]] },
  {
    event: 'UPDATE',
    change: 'updated',
    transition: 'OLD TABLE AS old_rows NEW TABLE AS new_rows',
    rows: [
      ['new_rows', 1],
      ['old_rows', -1],
    ],
  },
  { event: 'DELETE', change: 'deleted', transition: 'OLD TABLE AS old_rows', rows: [['old_rows', -1]] },
] as const;

export function createDeltaTotals(totals: DeltaTotals): string {
  const { source, deltas, name } = totals;
  return /* sql */ `
    CREATE TABLE ${deltas} (id bigserial PRIMARY KEY, ${totals.columns});
    CREATE INDEX ${deltas}_${totals.key}_idx ON ${deltas} (${totals.key});
    ${TRIGGERS.map(
      ({ event, change, transition, rows }) => `
    CREATE FUNCTION ${name}_${change}() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      ${addTotals(totals, rows.map(([table, sign]) => totals.contribution(table, sign)).join(' UNION ALL '))};
      RETURN NULL;
    END $$;
    CREATE TRIGGER ${source}_${name}_${event.toLowerCase()} AFTER ${event} ON ${source}
      REFERENCING ${transition} FOR EACH STATEMENT EXECUTE FUNCTION ${name}_${change}();`,
    ).join('\n')}
    CREATE FUNCTION ${name}_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      DELETE FROM ${deltas};
      RETURN NULL;
    END $$;
    CREATE TRIGGER ${source}_${name}_truncate AFTER TRUNCATE ON ${source} FOR EACH STATEMENT EXECUTE FUNCTION ${name}_truncated();

    -- Folds each key's deltas into one row. Exact under concurrency: the DELETE
    -- takes only rows committed before it, and re-adds exactly their sums.
    CREATE FUNCTION compact_${name}() RETURNS void LANGUAGE sql AS $$
      WITH gone AS (DELETE FROM ${deltas} RETURNING ${totals.key}, ${totals.figures.join(', ')})
      ${addTotals(totals, 'SELECT * FROM gone')};
    $$;

    -- The rows that exist already.
    ${addTotals(totals, totals.contribution(source, 1))};`;
}

export function dropDeltaTotals({ source, deltas, name }: DeltaTotals): string {
  return /* sql */ `
    ${[...TRIGGERS.map(({ event }) => event.toLowerCase()), 'truncate'].map((event) => `DROP TRIGGER IF EXISTS ${source}_${name}_${event} ON ${source};`).join('\n')}
    DROP FUNCTION IF EXISTS ${name}_inserted(), ${name}_updated(), ${name}_deleted(), ${name}_truncated(), compact_${name}();
    DROP TABLE IF EXISTS ${deltas};`;
}
