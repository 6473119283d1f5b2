import type { Migration } from '../migrate.ts';

/**
 * The dashboard's client figures (app/dashboard/metrics.server.ts), kept by
 * the database like the invoice status totals of
 * 2026.11.22T12.00.00.invoice-summaries: statement triggers on `clients`
 * append each statement's change to an insert-only delta table, a figure is
 * the sum of its rows, and the hourly housekeeping folds them
 * (`compact_client_book_totals()`). Reading them was a pass over every
 * client per request (docs/benchmarks.md).
 *
 * Each figure is a sum over clients of something that depends only on the
 * client's own row: whether it is active, its risk category, and for an
 * active client what it may still draw, max(credit_limit − used_credit, 0)
 * (docs/money.md). The rows are kept per Croatian month the client was
 * created in, so "new this month" and "created before this month" are sums
 * over those months. Insert-only deltas mean concurrent writers (every ledger
 * posting updates used_credit) never wait on a shared counter row.
 */
const ZONE = `'Europe/Zagreb'`;

/** One row per client in `rows`, signed: what it contributes to the totals. */
const contributionRows = (rows: string, sign: 1 | -1) => `
  SELECT CAST(date_trunc('month', created_at AT TIME ZONE ${ZONE}) AS date) AS created_month,
         ${sign} * (status = 'active')::int AS active,
         ${sign} * CASE WHEN status = 'active' THEN greatest(coalesce(credit_limit, 0) - used_credit, 0) ELSE 0 END AS available,
         ${sign} * (risk_category IS NOT DISTINCT FROM 'low')::int AS low,
         ${sign} * (risk_category IS NOT DISTINCT FROM 'medium')::int AS medium,
         ${sign} * (risk_category IS NOT DISTINCT FROM 'high')::int AS high
    FROM ${rows}`;

const FIGURES = ['active', 'available', 'low', 'medium', 'high'];
const SUMS = FIGURES.map((figure) => `sum(${figure})`).join(', ');
const ANY_CHANGE = FIGURES.map((figure) => `sum(${figure}) <> 0`).join(' OR ');

/** Adds the summed contributions of `changes` per created month; months whose changes cancel out add nothing. */
const addTotals = (source: string) => `
  INSERT INTO client_book_deltas (created_month, ${FIGURES.join(', ')})
    SELECT created_month, ${SUMS} FROM (${source}) s GROUP BY created_month HAVING ${ANY_CHANGE}`;

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
    CREATE TABLE client_book_deltas (
      id bigserial PRIMARY KEY,
      created_month date NOT NULL,
      active bigint NOT NULL,
      available numeric(17, 2) NOT NULL,
      low bigint NOT NULL,
      medium bigint NOT NULL,
      high bigint NOT NULL
    );

    ${deltaFunction('client_book_inserted', [['new_rows', 1]])}
    ${deltaFunction('client_book_updated', [
      ['new_rows', 1],
      ['old_rows', -1],
    ])}
    ${deltaFunction('client_book_deleted', [['old_rows', -1]])}
    CREATE FUNCTION client_book_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      DELETE FROM client_book_deltas;
      RETURN NULL;
    END $$;

    CREATE TRIGGER clients_book_insert AFTER INSERT ON clients
      REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION client_book_inserted();
    CREATE TRIGGER clients_book_update AFTER UPDATE ON clients
      REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION client_book_updated();
    CREATE TRIGGER clients_book_delete AFTER DELETE ON clients
      REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION client_book_deleted();
    CREATE TRIGGER clients_book_truncate AFTER TRUNCATE ON clients
      FOR EACH STATEMENT EXECUTE FUNCTION client_book_truncated();

    -- Folds each month's deltas into one row. Exact under concurrency: the DELETE
    -- takes only rows committed before it, and re-adds exactly their sums.
    CREATE FUNCTION compact_client_book_totals() RETURNS void LANGUAGE sql AS $$
      WITH gone AS (DELETE FROM client_book_deltas RETURNING created_month, ${FIGURES.join(', ')})
      ${addTotals('SELECT * FROM gone')};
    $$;

    -- The clients that exist already.
    ${addTotals(contributionRows('clients', 1))};
  `);
};

export const down: Migration = async ({ context: db }) => {
  await db.query(/* sql */ `
    DROP TRIGGER IF EXISTS clients_book_insert ON clients;
    DROP TRIGGER IF EXISTS clients_book_update ON clients;
    DROP TRIGGER IF EXISTS clients_book_delete ON clients;
    DROP TRIGGER IF EXISTS clients_book_truncate ON clients;
    DROP FUNCTION IF EXISTS client_book_inserted(), client_book_updated(), client_book_deleted(), client_book_truncated(),
      compact_client_book_totals();
    DROP TABLE IF EXISTS client_book_deltas;
  `);
};
