import type { Migration } from '../migrate.ts';

/**
 * The factor's open book on any day, kept by the database itself
 * (docs/collections.md#ageing, docs/benchmarks.md): what the ageing report
 * reads instead of rolling a million invoices back through the ledger.
 *
 * `invoices.left_book_on`: the Croatian business day a charged-back or
 * written-off invoice left the factor's book. A trigger sets it when the
 * status changes, from the transaction's business day (`finflow.business_day`,
 * as SQL_BUSINESS_TODAY in app/utils/business-time.ts reads it) or else the
 * Croatian day of `charged_back_at` / `written_off_at`; neither booking
 * always leaves a ledger entry (an advance already repaid books none).
 *
 * `open_book_changes`: per invoice and day, how much the factor's open amount
 * on the invoice changed that day, in cents, and whether the invoice entered
 * (+1) or left (−1) the open book. The sum of an invoice's rows up to a day is
 * what was open on it that day (`open_book_changes_of`, the one definition):
 * from its financing day (its positive `advance` entry), the amount less the
 * `collection` entries booked up to the day and the credit notes issued up to
 * it, never below zero, until the day it left the book (`left_book_on`). An
 * invoice's rows are recomputed whenever its ledger entries, credit notes,
 * amount, due date, parties or exit day change, in the writing transaction:
 * every writer holds the invoice row (app/ledger/ledger.server.ts says so of
 * the ledger; credit notes and status changes lock it), so two refreshes of
 * one invoice never overlap.
 *
 * `open_book_totals` and `open_book_deltas`: the sums of those changes per
 * client, per customer and per due date (`scope`), over all days (`period`
 * 'all') and per calendar year and month of the change's day (`period`
 * 'year' / 'month', from `period_start`), so a report on a past day subtracts
 * whole years and months and reads the changes of the days of one month only.
 * Writers append their differences to `open_book_deltas`, insert-only like
 * the invoice summaries (2026.11.22T12.00.00.invoice-summaries): concurrent
 * writers never wait on a shared row. The hourly housekeeping moves them into
 * `open_book_totals`, one row per key (`compact_open_book_totals()`), so a
 * reader takes each party's total without summing: the key's row plus its
 * few deltas.
 *
 * Amounts are integer cents (bigint): exact, and summed several times faster
 * than NUMERIC over hundreds of thousands of rows.
 *
 * The ageing report no longer reads the financed invoices, so the covering
 * indexes of 2026.11.27T20.50.00.ageing-indexes go.
 */
const ZONE = `'Europe/Zagreb'`;

/**
 * The columns of open_book_totals and open_book_deltas: what a row sums — a
 * client's, a customer's or a due date's changes (`scope` and its key) of every
 * day, or of the calendar year or month starting on period_start — and the sums.
 */
const SUM_COLUMNS = `id bigserial PRIMARY KEY,
      scope text NOT NULL CHECK (scope IN ('client', 'customer', 'due_date')),
      party_id uuid,
      due_date date,
      period text NOT NULL CHECK (period IN ('all', 'year', 'month')),
      period_start date,
      CHECK ((period = 'all') = (period_start IS NULL) AND period_start = date_trunc(period, period_start)),
      open_cents bigint NOT NULL,
      invoices bigint NOT NULL,
      CHECK ((scope = 'due_date') = (due_date IS NOT NULL) AND (scope = 'due_date') = (party_id IS NULL))`;

/**
 * SQL: the rows (scope, party_id, due_date, period, period_start, open_cents,
 * invoices) of open_book_totals / open_book_deltas that sum the changes in
 * `changes` (client_id, customer_id, due_date, day, open_cents, invoices): per
 * scope and key each month's sum, then each year's and every day's from those,
 * which are far fewer rows to group than the changes.
 */
const TOTALS_OF = (changes: string) => `
  WITH monthly AS (
    SELECT 'client' AS scope, d.client_id AS party_id, NULL::date AS due_date, CAST(date_trunc('month', d.day) AS date) AS month,
           sum(d.open_cents) AS open_cents, sum(d.invoices) AS invoices
      FROM ${changes} d GROUP BY d.client_id, 4
    UNION ALL
    SELECT 'customer', d.customer_id, NULL, CAST(date_trunc('month', d.day) AS date), sum(d.open_cents), sum(d.invoices) FROM ${changes} d GROUP BY d.customer_id, 4
    UNION ALL
    SELECT 'due_date', NULL, d.due_date, CAST(date_trunc('month', d.day) AS date), sum(d.open_cents), sum(d.invoices) FROM ${changes} d GROUP BY d.due_date, 4)
  SELECT m.scope, m.party_id, m.due_date, 'month', m.month, m.open_cents, m.invoices FROM monthly m WHERE m.open_cents <> 0 OR m.invoices <> 0
  UNION ALL
  SELECT m.scope, m.party_id, m.due_date, 'year', CAST(date_trunc('year', m.month) AS date), sum(m.open_cents), sum(m.invoices)
    FROM monthly m GROUP BY m.scope, m.party_id, m.due_date, 5 HAVING sum(m.open_cents) <> 0 OR sum(m.invoices) <> 0
  UNION ALL
  SELECT m.scope, m.party_id, m.due_date, 'all', NULL, sum(m.open_cents), sum(m.invoices)
    FROM monthly m GROUP BY m.scope, m.party_id, m.due_date HAVING sum(m.open_cents) <> 0 OR sum(m.invoices) <> 0`;

/** The columns of open_book_changes, in the order open_book_changes_of returns them. */
const CHANGE_COLUMNS = 'invoice_id, day, client_id, customer_id, due_date, open_cents, invoices';

export const up: Migration = async ({ context: db }) => {
  await db.query(/* sql */ `
    ALTER TABLE invoices ADD COLUMN left_book_on date;
    UPDATE invoices SET left_book_on = CAST(coalesce(charged_back_at, written_off_at) AT TIME ZONE ${ZONE} AS date)
     WHERE status IN ('charged_back', 'written_off');
    ALTER TABLE invoices ADD CONSTRAINT invoices_left_book CHECK ((status IN ('charged_back', 'written_off')) = (left_book_on IS NOT NULL));

    CREATE FUNCTION invoices_left_book_on() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.status NOT IN ('charged_back', 'written_off') THEN
        NEW.left_book_on := NULL;
      ELSIF NEW.left_book_on IS NULL THEN
        NEW.left_book_on := coalesce(nullif(current_setting('finflow.business_day', true), '')::date,
                                     CAST(coalesce(NEW.charged_back_at, NEW.written_off_at, now()) AT TIME ZONE ${ZONE} AS date));
      END IF;
      RETURN NEW;
    END $$;
    CREATE TRIGGER invoices_left_book_on_insert BEFORE INSERT ON invoices
      FOR EACH ROW WHEN (NEW.status IN ('charged_back', 'written_off')) EXECUTE FUNCTION invoices_left_book_on();
    CREATE TRIGGER invoices_left_book_on_update BEFORE UPDATE OF status ON invoices
      FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION invoices_left_book_on();

    CREATE TABLE open_book_changes (
      -- No foreign key: the rows exist only for invoices with ledger entries, which cannot be deleted, and a bulk load
      -- (the ledger backfill) would check it once per row.
      invoice_id uuid NOT NULL,
      day date NOT NULL,
      client_id uuid NOT NULL,
      customer_id uuid NOT NULL,
      due_date date NOT NULL,
      open_cents bigint NOT NULL,
      invoices integer NOT NULL CHECK (invoices BETWEEN -1 AND 1),
      PRIMARY KEY (invoice_id, day)
    );

    -- One row per key: the folded sums (written by the compaction and the fill below).
    CREATE TABLE open_book_totals (
      ${SUM_COLUMNS},
      UNIQUE NULLS NOT DISTINCT (scope, party_id, due_date, period, period_start)
    );
    -- The writers' additions since the last compaction, insert-only.
    CREATE TABLE open_book_deltas (${SUM_COLUMNS});

    -- The rule: what was open of each of the invoices, as its changes per day.
    CREATE FUNCTION open_book_changes_of(ids uuid[])
      RETURNS TABLE (invoice_id uuid, day date, client_id uuid, customer_id uuid, due_date date, open_cents bigint, invoices integer)
      LANGUAGE sql STABLE AS $$
      -- Joined rather than '= ANY (ids)': a bulk load (the ledger backfill) passes hundreds of thousands of ids, which a
      -- filter would search one by one for every row.
      WITH keys AS (SELECT DISTINCT k.id FROM unnest(ids) AS k (id)),
      moves AS (
        -- Collections are negative entries (a refund books one back), on the day they were booked.
        SELECT l.invoice_id, l.booked_on AS day, CASE WHEN l.kind = 'collection' THEN -l.amount ELSE 0 END AS settled,
               l.kind = 'advance' AND l.amount > 0 AS financing
          FROM keys JOIN client_ledger l ON l.invoice_id = keys.id WHERE l.kind IN ('advance', 'collection')
        UNION ALL
        SELECT n.invoice_id, n.issue_date, n.amount, false FROM keys JOIN credit_notes n ON n.invoice_id = keys.id
        UNION ALL
        SELECT i.id, i.left_book_on, 0, false FROM keys JOIN invoices i ON i.id = keys.id WHERE i.left_book_on IS NOT NULL),
      days AS (SELECT m.invoice_id, m.day, sum(m.settled) AS settled, bool_or(m.financing) AS financing FROM moves m GROUP BY m.invoice_id, m.day),
      states AS (
        SELECT d.invoice_id, d.day, sum(d.settled) OVER (PARTITION BY d.invoice_id ORDER BY d.day) AS settled_to_day,
               min(d.day) FILTER (WHERE d.financing) OVER (PARTITION BY d.invoice_id) AS financed_on
          FROM days d),
      opened AS (
        SELECT s.invoice_id, s.day, i.client_id, i.customer_id, i.due_date,
               CASE WHEN s.day >= s.financed_on AND (i.left_book_on IS NULL OR s.day < i.left_book_on)
                    THEN greatest(i.amount - s.settled_to_day, 0) ELSE 0 END AS open
          FROM states s JOIN invoices i ON i.id = s.invoice_id),
      changes AS (
        SELECT o.*, o.open - coalesce(lag(o.open) OVER w, 0) AS open_change, sign(o.open) - coalesce(lag(sign(o.open)) OVER w, 0) AS invoice_change
          FROM opened o WINDOW w AS (PARTITION BY o.invoice_id ORDER BY o.day))
      SELECT c.invoice_id, c.day, c.client_id, c.customer_id, c.due_date, CAST(c.open_change * 100 AS bigint), CAST(c.invoice_change AS integer)
        FROM changes c WHERE c.open_change <> 0 OR c.invoice_change <> 0
    $$;

    -- Brings the invoices' rows up to date and adds the difference to the totals (with room to group a bulk load's in memory).
    CREATE FUNCTION refresh_open_book(ids uuid[]) RETURNS void LANGUAGE plpgsql SET work_mem = '64MB' AS $$
    BEGIN
      IF cardinality(ids) > 0 THEN
        WITH fresh AS (SELECT * FROM open_book_changes_of(ids)),
        stored AS (SELECT c.invoice_id, c.day, c.client_id, c.customer_id, c.due_date, c.open_cents, c.invoices
                     FROM (SELECT DISTINCT k.id FROM unnest(ids) AS k (id)) keys JOIN open_book_changes c ON c.invoice_id = keys.id),
        added AS (SELECT * FROM fresh EXCEPT ALL SELECT * FROM stored),
        removed AS (SELECT * FROM stored EXCEPT ALL SELECT * FROM fresh),
        gone AS (
          DELETE FROM open_book_changes c USING removed r
           WHERE c.invoice_id = r.invoice_id AND c.day = r.day AND NOT EXISTS (SELECT 1 FROM added a WHERE a.invoice_id = r.invoice_id AND a.day = r.day)),
        put AS (
          INSERT INTO open_book_changes (${CHANGE_COLUMNS}) SELECT ${CHANGE_COLUMNS} FROM added
            ON CONFLICT (invoice_id, day) DO UPDATE SET client_id = EXCLUDED.client_id, customer_id = EXCLUDED.customer_id,
              due_date = EXCLUDED.due_date, open_cents = EXCLUDED.open_cents, invoices = EXCLUDED.invoices),
        diff AS (
          SELECT a.client_id, a.customer_id, a.due_date, a.day, a.open_cents, a.invoices FROM added a
          UNION ALL SELECT r.client_id, r.customer_id, r.due_date, r.day, -r.open_cents, -r.invoices FROM removed r)
        INSERT INTO open_book_deltas (scope, party_id, due_date, period, period_start, open_cents, invoices) ${TOTALS_OF('diff')};
      END IF;
    END $$;

    CREATE FUNCTION open_book_ledger_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM refresh_open_book(ARRAY(SELECT DISTINCT n.invoice_id FROM new_rows n WHERE n.kind IN ('advance', 'collection') AND n.invoice_id IS NOT NULL));
      RETURN NULL;
    END $$;
    CREATE TRIGGER client_ledger_open_book AFTER INSERT ON client_ledger
      REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION open_book_ledger_inserted();

    CREATE FUNCTION open_book_credit_notes_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM refresh_open_book(ARRAY(SELECT DISTINCT n.invoice_id FROM new_rows n));
      RETURN NULL;
    END $$;
    CREATE TRIGGER credit_notes_open_book AFTER INSERT ON credit_notes
      REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION open_book_credit_notes_inserted();

    -- The status is listed because left_book_on changes with it in the BEFORE trigger, which UPDATE OF alone would not see.
    CREATE FUNCTION open_book_invoice_updated() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM refresh_open_book(ARRAY[NEW.id]);
      RETURN NULL;
    END $$;
    CREATE TRIGGER invoices_open_book AFTER UPDATE OF status, amount, due_date, client_id, customer_id, left_book_on ON invoices
      FOR EACH ROW WHEN (OLD.amount IS DISTINCT FROM NEW.amount OR OLD.due_date IS DISTINCT FROM NEW.due_date OR OLD.client_id IS DISTINCT FROM NEW.client_id
                         OR OLD.customer_id IS DISTINCT FROM NEW.customer_id OR OLD.left_book_on IS DISTINCT FROM NEW.left_book_on)
      EXECUTE FUNCTION open_book_invoice_updated();

    -- Moves the deltas into the one row of their key (dropping keys whose sums came back to zero). Exact under
    -- concurrency: the DELETE takes only deltas committed before it, and each is added exactly once.
    CREATE FUNCTION compact_open_book_totals() RETURNS void LANGUAGE plpgsql AS $$
    DECLARE
      emptied bigint[];
    BEGIN
      WITH moved AS (DELETE FROM open_book_deltas RETURNING scope, party_id, due_date, period, period_start, open_cents, invoices),
      folded AS (
        INSERT INTO open_book_totals AS t (scope, party_id, due_date, period, period_start, open_cents, invoices)
          SELECT scope, party_id, due_date, period, period_start, sum(open_cents), sum(invoices) FROM moved GROUP BY scope, party_id, due_date, period, period_start
          ON CONFLICT (scope, party_id, due_date, period, period_start) DO UPDATE SET open_cents = t.open_cents + EXCLUDED.open_cents, invoices = t.invoices + EXCLUDED.invoices
          RETURNING t.id, t.open_cents, t.invoices)
      SELECT array_agg(id) INTO emptied FROM folded WHERE open_cents = 0 AND invoices = 0;
      DELETE FROM open_book_totals WHERE id = ANY (emptied);
    END $$;

    -- The book as it stands.
    INSERT INTO open_book_changes (${CHANGE_COLUMNS})
      SELECT * FROM open_book_changes_of(ARRAY(SELECT DISTINCT invoice_id FROM client_ledger WHERE kind = 'advance' AND amount > 0));
    INSERT INTO open_book_totals (scope, party_id, due_date, period, period_start, open_cents, invoices) ${TOTALS_OF('open_book_changes')};

    -- A day's report: the changes after it by day (up to the next month) and the totals by scope and period;
    -- a party's rows and invoices up to the day (the report's cells and the drill-down).
    CREATE INDEX open_book_changes_day_idx ON open_book_changes (day) INCLUDE (client_id, customer_id, due_date, open_cents, invoices);
    CREATE INDEX open_book_changes_client_idx ON open_book_changes (client_id, day) INCLUDE (invoice_id, due_date, open_cents, invoices);
    CREATE INDEX open_book_changes_customer_idx ON open_book_changes (customer_id, day) INCLUDE (invoice_id, due_date, open_cents, invoices);
    CREATE INDEX open_book_totals_scope_idx ON open_book_totals (scope, period, period_start) INCLUDE (party_id, due_date, open_cents, invoices);
    -- The parties with the largest totals first, for a report's page.
    CREATE INDEX open_book_totals_largest_idx ON open_book_totals (scope, open_cents DESC) INCLUDE (party_id, invoices) WHERE period = 'all';
    CREATE INDEX open_book_deltas_scope_idx ON open_book_deltas (scope, period, period_start) INCLUDE (party_id, due_date, open_cents, invoices);

    DROP INDEX IF EXISTS invoices_ageing_client_idx;
    DROP INDEX IF EXISTS invoices_ageing_customer_idx;
  `);
};

export const down: Migration = async ({ context: db }) => {
  await db.query(/* sql */ `
    CREATE INDEX IF NOT EXISTS invoices_ageing_client_idx ON invoices (client_id) INCLUDE (due_date, amount, paid_amount) WHERE status = 'financed';
    CREATE INDEX IF NOT EXISTS invoices_ageing_customer_idx ON invoices (customer_id) INCLUDE (due_date, amount, paid_amount) WHERE status = 'financed';
    DROP TRIGGER IF EXISTS invoices_open_book ON invoices;
    DROP TRIGGER IF EXISTS credit_notes_open_book ON credit_notes;
    DROP TRIGGER IF EXISTS client_ledger_open_book ON client_ledger;
    DROP TRIGGER IF EXISTS invoices_left_book_on_insert ON invoices;
    DROP TRIGGER IF EXISTS invoices_left_book_on_update ON invoices;
    DROP FUNCTION IF EXISTS open_book_invoice_updated(), open_book_credit_notes_inserted(), open_book_ledger_inserted(),
      refresh_open_book(uuid[]), open_book_changes_of(uuid[]), compact_open_book_totals(), invoices_left_book_on();
    DROP TABLE IF EXISTS open_book_deltas, open_book_totals, open_book_changes;
    ALTER TABLE invoices DROP CONSTRAINT IF EXISTS invoices_left_book, DROP COLUMN IF EXISTS left_book_on;
  `);
};
