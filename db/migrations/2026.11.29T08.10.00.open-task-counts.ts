import type { Migration } from '../migrate.ts';

/**
 * Each user's open tasks (assigned to them, pending or in progress): the bell
 * in the frame of every page and the total of the dashboard's task list
 * (app/tasks/open-count.server.ts), kept by the database like the invoice
 * status totals of 2026.11.22T12.00.00.invoice-summaries: statement triggers
 * on `tasks` append each statement's change per user to an insert-only delta
 * table, a user's count is the sum of their rows, and the hourly housekeeping
 * folds them (`compact_open_task_counts()`). Counting them was a walk over
 * every open task of the user on every page: 8,000 index entries, about a
 * millisecond of PostgreSQL per page, for the bench book's busiest user.
 * A user left without open tasks has rows summing to 0, which the next fold
 * drops.
 */

/** One row per open, assigned task in `rows`, signed. */
const contributionRows = (rows: string, sign: 1 | -1) => `
  SELECT assigned_to AS user_id, ${sign} AS tasks FROM ${rows} WHERE assigned_to IS NOT NULL AND status IN ('pending', 'in_progress')`;

/** Adds the summed contributions per user; users whose changes cancel out add nothing. */
const addCounts = (source: string) => `
  INSERT INTO open_task_deltas (user_id, tasks)
    SELECT user_id, sum(tasks) FROM (${source}) s GROUP BY user_id HAVING sum(tasks) <> 0`;

function deltaFunction(name: string, changes: Array<[rows: string, sign: 1 | -1]>) {
  return /* sql */ `
    CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      ${addCounts(changes.map(([rows, sign]) => contributionRows(rows, sign)).join(' UNION ALL '))};
      RETURN NULL;
    END $$;`;
}

export const up: Migration = async ({ context: db }) => {
  await db.query(/* sql */ `
    CREATE TABLE open_task_deltas (
      id bigserial PRIMARY KEY,
      user_id uuid NOT NULL,
      tasks bigint NOT NULL
    );
    CREATE INDEX open_task_deltas_user_idx ON open_task_deltas (user_id);

    ${deltaFunction('open_task_counts_inserted', [['new_rows', 1]])}
    ${deltaFunction('open_task_counts_updated', [
      ['new_rows', 1],
      ['old_rows', -1],
    ])}
    ${deltaFunction('open_task_counts_deleted', [['old_rows', -1]])}
    CREATE FUNCTION open_task_counts_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      DELETE FROM open_task_deltas;
      RETURN NULL;
    END $$;

    CREATE TRIGGER tasks_open_counts_insert AFTER INSERT ON tasks
      REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION open_task_counts_inserted();
    CREATE TRIGGER tasks_open_counts_update AFTER UPDATE ON tasks
      REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION open_task_counts_updated();
    CREATE TRIGGER tasks_open_counts_delete AFTER DELETE ON tasks
      REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION open_task_counts_deleted();
    CREATE TRIGGER tasks_open_counts_truncate AFTER TRUNCATE ON tasks
      FOR EACH STATEMENT EXECUTE FUNCTION open_task_counts_truncated();

    -- Folds each user's deltas into one row, dropping users whose tasks are all closed. Exact under concurrency:
    -- the DELETE takes only rows committed before it, and re-adds exactly their sums.
    CREATE FUNCTION compact_open_task_counts() RETURNS void LANGUAGE sql AS $$
      WITH gone AS (DELETE FROM open_task_deltas RETURNING user_id, tasks)
      ${addCounts('SELECT * FROM gone')};
    $$;

    -- The tasks that exist already.
    ${addCounts(contributionRows('tasks', 1))};
  `);
};

export const down: Migration = async ({ context: db }) => {
  await db.query(/* sql */ `
    DROP TRIGGER IF EXISTS tasks_open_counts_insert ON tasks;
    DROP TRIGGER IF EXISTS tasks_open_counts_update ON tasks;
    DROP TRIGGER IF EXISTS tasks_open_counts_delete ON tasks;
    DROP TRIGGER IF EXISTS tasks_open_counts_truncate ON tasks;
    DROP FUNCTION IF EXISTS open_task_counts_inserted(), open_task_counts_updated(), open_task_counts_deleted(),
      open_task_counts_truncated(), compact_open_task_counts();
    DROP TABLE IF EXISTS open_task_deltas;
  `);
};
