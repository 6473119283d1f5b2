import type { Migration } from '../migrate.ts';

/**
 * Two figures every dashboard view or every page read by counting rows that
 * only grow, kept by the database instead, like the invoice status totals of
 * 2026.11.22T12.00.00.invoice-summaries: statement triggers on the source
 * table append each statement's change per key to an insert-only delta
 * table, a figure is the sum of its key's rows, and the hourly housekeeping
 * folds them (`compact_…()`). Insert-only deltas mean concurrent writers never
 * wait on a shared counter row; keys whose changes cancel out add nothing.
 *
 * - `workflow_instance_deltas`, per status: how many instances, and the
 *   seconds from start to completion summed over them (exact: `extract(epoch
 *   …)` is numeric; only a completed instance has `completed_at`, by the
 *   table's check). The dashboard's and GET /api/workflow-metrics' figures
 *   (app/workflows/metrics.server.ts) counted every instance ever started.
 * - `open_task_deltas`, per assignee: their open tasks (pending or in
 *   progress, app/tasks/open-count.server.ts's OPEN_TASKS_OF_USER). The bell
 *   in every page's frame counted them on every page: 8,000 index entries,
 *   about a millisecond of PostgreSQL per page, for the bench book's busiest
 *   user. A user left without open tasks has rows summing to 0, which the
 *   next fold drops.
 */

interface Totals {
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

const TOTALS: Totals[] = [
  {
    source: 'workflow_instances',
    deltas: 'workflow_instance_deltas',
    name: 'workflow_instance_totals',
    columns: 'status text NOT NULL, instances bigint NOT NULL, completed_seconds numeric NOT NULL',
    key: 'status',
    figures: ['instances', 'completed_seconds'],
    contribution: (rows, sign) => `SELECT status, ${sign} AS instances, ${sign} * coalesce(extract(epoch FROM completed_at - started_at), 0) AS completed_seconds FROM ${rows}`,
  },
  {
    source: 'tasks',
    deltas: 'open_task_deltas',
    name: 'open_task_counts',
    columns: 'user_id uuid NOT NULL, tasks bigint NOT NULL',
    key: 'user_id',
    figures: ['tasks'],
    contribution: (rows, sign) => `SELECT assigned_to AS user_id, ${sign} AS tasks FROM ${rows} WHERE assigned_to IS NOT NULL AND status IN ('pending', 'in_progress')`,
  },
];

/** Adds the summed contributions of `source` per key. */
const addTotals = (totals: Totals, source: string) => `
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

function create(totals: Totals): string {
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

function drop({ source, deltas, name }: Totals): string {
  return /* sql */ `
    ${[...TRIGGERS.map(({ event }) => event.toLowerCase()), 'truncate'].map((event) => `DROP TRIGGER IF EXISTS ${source}_${name}_${event} ON ${source};`).join('\n')}
    DROP FUNCTION IF EXISTS ${name}_inserted(), ${name}_updated(), ${name}_deleted(), ${name}_truncated(), compact_${name}();
    DROP TABLE IF EXISTS ${deltas};`;
}

export const up: Migration = async ({ context: db }) => {
  await db.query(TOTALS.map(create).join('\n'));
};

export const down: Migration = async ({ context: db }) => {
  await db.query(TOTALS.map(drop).join('\n'));
};
