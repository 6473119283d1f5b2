import type { Migration } from '../migrate.ts';

/**
 * What keeps the invoice lists and the dashboard fast on a large book
 * (docs/benchmarks.md): exact counts without counting a million rows, indexes for this
 * month's financings and payments, and for number search. Statement
 * triggers on `invoices` append what each statement changed to two insert-only
 * delta tables: invoices per status (and how many of them were ever
 * approved), and invoices received, verified and approved per Croatian day.
 * A figure is the sum of its deltas, which is always exact; the hourly
 * housekeeping job folds the deltas into one row per key
 * (`compact_invoice_summaries()`), so the sums stay small. Insert-only deltas
 * mean concurrent invoice writes never wait on a shared counter row.
 */
const ZONE = `'Europe/Zagreb'`;

/** One row per invoice in `rows`, signed: what it contributes to the status totals. */
const statusRows = (rows: string, sign: 1 | -1) => `SELECT status, ${sign} AS invoices, ${sign} * (approved_at IS NOT NULL)::int AS ever_approved FROM ${rows}`;

/** The day events of the invoices in `rows`, signed. */
const dayRows = (rows: string, sign: 1 | -1) => `
  SELECT CAST(created_at AT TIME ZONE ${ZONE} AS date) AS day, ${sign} AS received, 0 AS processed, 0 AS approved FROM ${rows}
  UNION ALL SELECT CAST(verified_at AT TIME ZONE ${ZONE} AS date), 0, ${sign}, 0 FROM ${rows} WHERE verified_at IS NOT NULL
  UNION ALL SELECT CAST(approved_at AT TIME ZONE ${ZONE} AS date), 0, 0, ${sign} FROM ${rows} WHERE approved_at IS NOT NULL`;

/** A trigger function adding `changes` (new rows +1, old rows −1); keys whose changes cancel out add nothing. */
function deltaFunction(name: string, changes: Array<[rows: string, sign: 1 | -1]>) {
  const status = changes.map(([rows, sign]) => statusRows(rows, sign)).join(' UNION ALL ');
  const days = changes.map(([rows, sign]) => dayRows(rows, sign)).join(' UNION ALL ');
  return /* sql */ `
    CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO invoice_status_deltas (status, invoices, ever_approved)
        SELECT status, sum(invoices), sum(ever_approved) FROM (${status}) s
         GROUP BY status HAVING sum(invoices) <> 0 OR sum(ever_approved) <> 0;
      INSERT INTO invoice_day_deltas (day, received, processed, approved)
        SELECT day, sum(received), sum(processed), sum(approved) FROM (${days}) d
         GROUP BY day HAVING sum(received) <> 0 OR sum(processed) <> 0 OR sum(approved) <> 0;
      RETURN NULL;
    END $$;`;
}

export const up: Migration = async ({ context: db }) => {
  await db.query(/* sql */ `
    CREATE TABLE invoice_status_deltas (
      id bigserial PRIMARY KEY,
      status text NOT NULL,
      invoices bigint NOT NULL,
      ever_approved bigint NOT NULL
    );
    CREATE TABLE invoice_day_deltas (
      id bigserial PRIMARY KEY,
      day date NOT NULL,
      received bigint NOT NULL,
      processed bigint NOT NULL,
      approved bigint NOT NULL
    );
    CREATE INDEX invoice_day_deltas_day_idx ON invoice_day_deltas (day);

    ${deltaFunction('invoice_summaries_inserted', [['new_rows', 1]])}
    ${deltaFunction('invoice_summaries_updated', [
      ['new_rows', 1],
      ['old_rows', -1],
    ])}
    ${deltaFunction('invoice_summaries_deleted', [['old_rows', -1]])}
    CREATE FUNCTION invoice_summaries_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      DELETE FROM invoice_status_deltas;
      DELETE FROM invoice_day_deltas;
      RETURN NULL;
    END $$;

    CREATE TRIGGER invoices_summaries_insert AFTER INSERT ON invoices
      REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION invoice_summaries_inserted();
    CREATE TRIGGER invoices_summaries_update AFTER UPDATE ON invoices
      REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION invoice_summaries_updated();
    CREATE TRIGGER invoices_summaries_delete AFTER DELETE ON invoices
      REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION invoice_summaries_deleted();
    CREATE TRIGGER invoices_summaries_truncate AFTER TRUNCATE ON invoices
      FOR EACH STATEMENT EXECUTE FUNCTION invoice_summaries_truncated();

    -- Folds each key's deltas into one row. Exact under concurrency: the DELETE
    -- takes only rows committed before it, and re-adds exactly their sums.
    CREATE FUNCTION compact_invoice_summaries() RETURNS void LANGUAGE sql AS $$
      WITH gone AS (DELETE FROM invoice_status_deltas RETURNING status, invoices, ever_approved)
      INSERT INTO invoice_status_deltas (status, invoices, ever_approved)
        SELECT status, sum(invoices), sum(ever_approved) FROM gone
         GROUP BY status HAVING sum(invoices) <> 0 OR sum(ever_approved) <> 0;
      WITH gone AS (DELETE FROM invoice_day_deltas RETURNING day, received, processed, approved)
      INSERT INTO invoice_day_deltas (day, received, processed, approved)
        SELECT day, sum(received), sum(processed), sum(approved) FROM gone
         GROUP BY day HAVING sum(received) <> 0 OR sum(processed) <> 0 OR sum(approved) <> 0;
    $$;

    -- The invoices that exist already.
    INSERT INTO invoice_status_deltas (status, invoices, ever_approved)
      SELECT status, count(*), count(approved_at) FROM invoices GROUP BY status;
    INSERT INTO invoice_day_deltas (day, received, processed, approved)
      SELECT day, sum(received), sum(processed), sum(approved) FROM (${dayRows('invoices', 1)}) d GROUP BY day;

    -- The dashboard's month-start figures read this month's financings and payments (index-only).
    CREATE INDEX invoices_financed_at_idx ON invoices (financed_at) INCLUDE (client_id, factor_amount, paid_at) WHERE financed_at IS NOT NULL;
    CREATE INDEX invoices_paid_at_idx ON invoices (paid_at) INCLUDE (client_id, factor_amount, financed_at) WHERE paid_at IS NOT NULL;

    -- Search by the start or the end of an invoice number (app/search.server.ts invoiceSearchCondition).
    CREATE INDEX invoices_number_prefix_idx ON invoices (lower(invoice_number) text_pattern_ops);
    CREATE INDEX invoices_number_suffix_idx ON invoices (reverse(lower(invoice_number)) text_pattern_ops);

    -- Pickers list clients and customers by name (the invoice form's options).
    CREATE INDEX clients_name_idx ON clients (lower(company_name), id);
    CREATE INDEX customers_name_idx ON customers (lower(company_name), id);

    -- "My tasks" (dashboard, /api/pending-tasks) in the order they are shown.
    CREATE INDEX tasks_assigned_open_order_idx ON tasks (assigned_to, due_date DESC NULLS LAST, created_at DESC, id DESC)
      WHERE status IN ('pending', 'in_progress');
  `);
};

export const down: Migration = async ({ context: db }) => {
  await db.query(/* sql */ `
    DROP INDEX IF EXISTS invoices_financed_at_idx, invoices_paid_at_idx, invoices_number_prefix_idx, invoices_number_suffix_idx,
      clients_name_idx, customers_name_idx, tasks_assigned_open_order_idx;
    DROP TRIGGER IF EXISTS invoices_summaries_insert ON invoices;
    DROP TRIGGER IF EXISTS invoices_summaries_update ON invoices;
    DROP TRIGGER IF EXISTS invoices_summaries_delete ON invoices;
    DROP TRIGGER IF EXISTS invoices_summaries_truncate ON invoices;
    DROP FUNCTION IF EXISTS invoice_summaries_inserted(), invoice_summaries_updated(), invoice_summaries_deleted(),
      invoice_summaries_truncated(), compact_invoice_summaries();
    DROP TABLE IF EXISTS invoice_status_deltas, invoice_day_deltas;
  `);
};
