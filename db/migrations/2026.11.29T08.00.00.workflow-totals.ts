import type { Migration } from '../migrate.ts';

/**
 * The workflow figures of the dashboard and GET /api/workflow-metrics
 * (app/workflows/metrics.server.ts), kept by the database like the invoice
 * status totals of 2026.11.22T12.00.00.invoice-summaries: statement triggers
 * on `workflow_instances` append each statement's change to an insert-only
 * delta table, a figure is the sum of its rows, and the hourly housekeeping
 * folds them (`compact_workflow_instance_totals()`). Reading them was a pass
 * over every instance ever started, on every dashboard view: a book that
 * starts a few hundred a day has a million in a few years.
 *
 * Per status: how many instances, and the seconds from start to completion
 * summed over them (exact: `extract(epoch …)` is numeric; only a completed
 * instance has `completed_at`, by the table's check), which with the count of
 * completed ones gives the average processing time.
 */

/** One row per instance in `rows`, signed. */
const contributionRows = (rows: string, sign: 1 | -1) => `
  SELECT status, ${sign} AS instances, ${sign} * coalesce(extract(epoch FROM completed_at - started_at), 0) AS completed_seconds FROM ${rows}`;

/** Adds the summed contributions per status; statuses whose changes cancel out add nothing. */
const addTotals = (source: string) => `
  INSERT INTO workflow_instance_deltas (status, instances, completed_seconds)
    SELECT status, sum(instances), sum(completed_seconds) FROM (${source}) s
     GROUP BY status HAVING sum(instances) <> 0 OR sum(completed_seconds) <> 0`;

function deltaFunction(name: string, changes: Array<[rows: string, sign: 1 | -1]>) {
  return /* sql */ `
    CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      ${addTotals(changes.map(([rows, sign]) => contributionRows(rows, sign)).join(' UNION ALL '))};
      RETURN NULL;
    END $$;`;
}

export const up: Migration = async ({ context: db }) => {
  await db.query(/* sql */ `
    CREATE TABLE workflow_instance_deltas (
      id bigserial PRIMARY KEY,
      status text NOT NULL,
      instances bigint NOT NULL,
      completed_seconds numeric NOT NULL
    );

    ${deltaFunction('workflow_instance_totals_inserted', [['new_rows', 1]])}
    ${deltaFunction('workflow_instance_totals_updated', [
      ['new_rows', 1],
      ['old_rows', -1],
    ])}
    ${deltaFunction('workflow_instance_totals_deleted', [['old_rows', -1]])}
    CREATE FUNCTION workflow_instance_totals_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      DELETE FROM workflow_instance_deltas;
      RETURN NULL;
    END $$;

    CREATE TRIGGER workflow_instances_totals_insert AFTER INSERT ON workflow_instances
      REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION workflow_instance_totals_inserted();
    CREATE TRIGGER workflow_instances_totals_update AFTER UPDATE ON workflow_instances
      REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION workflow_instance_totals_updated();
    CREATE TRIGGER workflow_instances_totals_delete AFTER DELETE ON workflow_instances
      REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION workflow_instance_totals_deleted();
    CREATE TRIGGER workflow_instances_totals_truncate AFTER TRUNCATE ON workflow_instances
      FOR EACH STATEMENT EXECUTE FUNCTION workflow_instance_totals_truncated();

    -- Folds each status's deltas into one row. Exact under concurrency: the DELETE
    -- takes only rows committed before it, and re-adds exactly their sums.
    CREATE FUNCTION compact_workflow_instance_totals() RETURNS void LANGUAGE sql AS $$
      WITH gone AS (DELETE FROM workflow_instance_deltas RETURNING status, instances, completed_seconds)
      ${addTotals('SELECT * FROM gone')};
    $$;

    -- The instances that exist already.
    ${addTotals(contributionRows('workflow_instances', 1))};
  `);
};

export const down: Migration = async ({ context: db }) => {
  await db.query(/* sql */ `
    DROP TRIGGER IF EXISTS workflow_instances_totals_insert ON workflow_instances;
    DROP TRIGGER IF EXISTS workflow_instances_totals_update ON workflow_instances;
    DROP TRIGGER IF EXISTS workflow_instances_totals_delete ON workflow_instances;
    DROP TRIGGER IF EXISTS workflow_instances_totals_truncate ON workflow_instances;
    DROP FUNCTION IF EXISTS workflow_instance_totals_inserted(), workflow_instance_totals_updated(), workflow_instance_totals_deleted(),
      workflow_instance_totals_truncated(), compact_workflow_instance_totals();
    DROP TABLE IF EXISTS workflow_instance_deltas;
  `);
};
