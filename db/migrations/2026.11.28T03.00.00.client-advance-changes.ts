import type { Migration } from '../migrate.ts';

/**
 * The dashboard's month-start comparison (app/dashboard/metrics.server.ts)
 * needs, per client, the advances outstanding at the start of this month.
 * Per invoice the advance outstanding after some entries is their sum (the
 * advance less its collections), never below zero
 * (app/ledger/ledger.server.ts); summed over a client's invoices it is
 * clients.used_credit when every entry is counted.
 *
 * `client_advance_changes` holds, per client and calendar month of
 * `booked_on`, how much that outstanding sum changed over the month: for each
 * invoice, outstanding(entries booked before the next month) less
 * outstanding(entries booked before this month). The outstanding sum at the
 * start of a month is then used_credit less the changes of that month and
 * every later one (entries may be booked ahead of today), a handful of rows
 * per client instead of this month's ledger and every entry of the invoices
 * it touched (docs/benchmarks.md).
 *
 * Statement triggers keep it in the writing transaction. The clamp at zero
 * makes a change depend on the invoice's other entries, so a trigger
 * recomputes the months of the invoices a statement touched with and without
 * the statement's rows and adds the difference. Two writers on one invoice
 * are serialised by the invoice row lock postLedgerEntries' callers hold
 * before they write; the second one's statements see the first one's entries.
 * Writers on different invoices of one client add to the same row with
 * `ON CONFLICT … DO UPDATE`, which waits for the other and adds to its sum.
 */

const FUNDING = `kind IN ('advance', 'collection')`;
const MONTH_OF = (date: string) => `CAST(date_trunc('month', CAST(${date} AS timestamp)) AS date)`;

/**
 * Adds to client_advance_changes what `entries` change: rows with the invoice's
 * entries after the statement (in_after) and before it (in_before), per invoice
 * and month, turned into the outstanding change of each month before and after.
 */
function addChanges(entries: string) {
  return /* sql */ `
    INSERT INTO client_advance_changes AS t (client_id, month, change)
    SELECT client_id, month, sum(change) FROM (
      SELECT client_id, month,
             (greatest(0, through_after) - greatest(0, through_after - month_after))
               - (greatest(0, through_before) - greatest(0, through_before - month_before)) AS change
        FROM (
          SELECT client_id, month, month_after, month_before,
                 sum(month_after) OVER w AS through_after, sum(month_before) OVER w AS through_before
            FROM (
              SELECT client_id, invoice_id, ${MONTH_OF('booked_on')} AS month,
                     coalesce(sum(amount) FILTER (WHERE in_after), 0) AS month_after,
                     coalesce(sum(amount) FILTER (WHERE in_before), 0) AS month_before
                FROM (${entries}) e
               GROUP BY client_id, invoice_id, ${MONTH_OF('booked_on')}) m
          WINDOW w AS (PARTITION BY client_id, invoice_id ORDER BY month)) c) d
     GROUP BY client_id, month HAVING sum(change) <> 0
    ON CONFLICT (month, client_id) DO UPDATE SET change = t.change + excluded.change`;
}

/** The touched invoices' entries now, and which of them the statement wrote (`new_rows`) or removed (`old_rows`). */
const AFTER_INSERT = `
  SELECT l.client_id, l.invoice_id, l.booked_on, l.amount, true AS in_after, n.id IS NULL AS in_before
    FROM client_ledger l LEFT JOIN new_rows n ON n.id = l.id
   WHERE l.${FUNDING} AND l.invoice_id IN (SELECT invoice_id FROM new_rows WHERE ${FUNDING})`;
const AFTER_DELETE = `
  SELECT l.client_id, l.invoice_id, l.booked_on, l.amount, true AS in_after, true AS in_before
    FROM client_ledger l
   WHERE l.${FUNDING} AND l.invoice_id IN (SELECT invoice_id FROM old_rows WHERE ${FUNDING})
  UNION ALL
  SELECT o.client_id, o.invoice_id, o.booked_on, o.amount, false, true FROM old_rows o WHERE o.${FUNDING} AND o.invoice_id IS NOT NULL`;
/** Every entry, as new: the backfill of a book that has a ledger already. */
const EVERY_ENTRY = `
  SELECT client_id, invoice_id, booked_on, amount, true AS in_after, false AS in_before
    FROM client_ledger WHERE ${FUNDING} AND invoice_id IS NOT NULL`;

export const up: Migration = async ({ context: db }) => {
  await db.query(/* sql */ `
    CREATE TABLE client_advance_changes (
      client_id uuid NOT NULL REFERENCES clients (id) ON DELETE CASCADE,
      -- The first day of the calendar month of the entries' booked_on.
      month date NOT NULL CHECK (extract(day FROM month) = 1),
      -- How much the advances outstanding on the client's invoices changed over the month.
      change numeric(15, 2) NOT NULL,
      -- The dashboard reads this month and later for every client.
      PRIMARY KEY (month, client_id) INCLUDE (change)
    );

    CREATE FUNCTION client_advance_changes_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      ${addChanges(AFTER_INSERT)};
      RETURN NULL;
    END $$;
    -- The ledger is append-only (client_ledger_append_only); a delete happens only where that trigger is disabled on purpose.
    CREATE FUNCTION client_advance_changes_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      ${addChanges(AFTER_DELETE)};
      RETURN NULL;
    END $$;
    CREATE FUNCTION client_advance_changes_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      DELETE FROM client_advance_changes;
      RETURN NULL;
    END $$;
    CREATE TRIGGER client_ledger_advance_changes_insert AFTER INSERT ON client_ledger
      REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION client_advance_changes_inserted();
    CREATE TRIGGER client_ledger_advance_changes_delete AFTER DELETE ON client_ledger
      REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION client_advance_changes_deleted();
    CREATE TRIGGER client_ledger_advance_changes_truncate AFTER TRUNCATE ON client_ledger
      FOR EACH STATEMENT EXECUTE FUNCTION client_advance_changes_truncated();

    -- The ledger written so far.
    ${addChanges(EVERY_ENTRY)};
  `);
};

export const down: Migration = async ({ context: db }) => {
  await db.query(/* sql */ `
    DROP TRIGGER IF EXISTS client_ledger_advance_changes_insert ON client_ledger;
    DROP TRIGGER IF EXISTS client_ledger_advance_changes_delete ON client_ledger;
    DROP TRIGGER IF EXISTS client_ledger_advance_changes_truncate ON client_ledger;
    DROP FUNCTION IF EXISTS client_advance_changes_inserted(), client_advance_changes_deleted(), client_advance_changes_truncated();
    DROP TABLE IF EXISTS client_advance_changes;
  `);
};
