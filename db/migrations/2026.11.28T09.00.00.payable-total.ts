import type { Migration } from '../migrate.ts';

/**
 * How many invoices a payment may still be recorded against (the payment
 * form's list, GET /api/invoices/payable), kept by the database like the
 * status totals of 2026.11.22T12.00.00.invoice-summaries: statement triggers
 * on `invoices` append each statement's change to an insert-only delta table,
 * the total is the sum of its rows, and the hourly housekeeping folds them
 * into one (`compact_invoice_summaries()`, redefined here to include it).
 * Counting the payable invoices took a scan of some 250,000 index entries on
 * the 1,000,000-invoice book, 70–80 ms a request (docs/benchmarks.md).
 * The predicate is app/payments/open-amount.server.ts's `payableSql`, the
 * same as the partial index invoices_payable_idx.
 */
const payable = (rows: string) => `${rows}.status IN ('financed', 'charged_back') AND ${rows}.amount > ${rows}.paid_amount + ${rows}.credited_amount + ${rows}.pending_amount`;

const countOf = (rows: string) => `(SELECT count(*) FROM ${rows} WHERE ${payable(rows)})`;

function deltaFunction(name: string, change: string) {
  return /* sql */ `
    CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      change bigint := ${change};
    BEGIN
      IF change <> 0 THEN
        INSERT INTO invoice_payable_deltas (invoices) VALUES (change);
      END IF;
      RETURN NULL;
    END $$;`;
}

const COMPACT_STATUS_AND_DAYS = /* sql */ `
      WITH gone AS (DELETE FROM invoice_status_deltas RETURNING status, invoices, ever_approved)
      INSERT INTO invoice_status_deltas (status, invoices, ever_approved)
        SELECT status, sum(invoices), sum(ever_approved) FROM gone
         GROUP BY status HAVING sum(invoices) <> 0 OR sum(ever_approved) <> 0;
      WITH gone AS (DELETE FROM invoice_day_deltas RETURNING day, received, processed, approved)
      INSERT INTO invoice_day_deltas (day, received, processed, approved)
        SELECT day, sum(received), sum(processed), sum(approved) FROM gone
         GROUP BY day HAVING sum(received) <> 0 OR sum(processed) <> 0 OR sum(approved) <> 0;`;

export const up: Migration = async ({ context: db }) => {
  await db.query(/* sql */ `
    CREATE TABLE invoice_payable_deltas (
      id bigserial PRIMARY KEY,
      invoices bigint NOT NULL
    );

    ${deltaFunction('invoice_payable_inserted', countOf('new_rows'))}
    ${deltaFunction('invoice_payable_updated', `${countOf('new_rows')} - ${countOf('old_rows')}`)}
    ${deltaFunction('invoice_payable_deleted', `-${countOf('old_rows')}`)}
    CREATE FUNCTION invoice_payable_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      DELETE FROM invoice_payable_deltas;
      RETURN NULL;
    END $$;

    CREATE TRIGGER invoices_payable_insert AFTER INSERT ON invoices
      REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION invoice_payable_inserted();
    CREATE TRIGGER invoices_payable_update AFTER UPDATE ON invoices
      REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION invoice_payable_updated();
    CREATE TRIGGER invoices_payable_delete AFTER DELETE ON invoices
      REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION invoice_payable_deleted();
    CREATE TRIGGER invoices_payable_truncate AFTER TRUNCATE ON invoices
      FOR EACH STATEMENT EXECUTE FUNCTION invoice_payable_truncated();

    -- The hourly fold now includes the payable total (exact under concurrency, as before).
    CREATE OR REPLACE FUNCTION compact_invoice_summaries() RETURNS void LANGUAGE sql AS $$
      ${COMPACT_STATUS_AND_DAYS}
      WITH gone AS (DELETE FROM invoice_payable_deltas RETURNING invoices)
      INSERT INTO invoice_payable_deltas (invoices) SELECT sum(invoices) FROM gone HAVING sum(invoices) <> 0;
    $$;

    -- The invoices that exist already.
    INSERT INTO invoice_payable_deltas (invoices) SELECT count(*) FROM invoices i WHERE ${payable('i')} HAVING count(*) <> 0;
  `);
};

export const down: Migration = async ({ context: db }) => {
  await db.query(/* sql */ `
    CREATE OR REPLACE FUNCTION compact_invoice_summaries() RETURNS void LANGUAGE sql AS $$
      ${COMPACT_STATUS_AND_DAYS}
    $$;
    DROP TRIGGER IF EXISTS invoices_payable_insert ON invoices;
    DROP TRIGGER IF EXISTS invoices_payable_update ON invoices;
    DROP TRIGGER IF EXISTS invoices_payable_delete ON invoices;
    DROP TRIGGER IF EXISTS invoices_payable_truncate ON invoices;
    DROP FUNCTION IF EXISTS invoice_payable_inserted(), invoice_payable_updated(), invoice_payable_deleted(), invoice_payable_truncated();
    DROP TABLE IF EXISTS invoice_payable_deltas;
  `);
};
