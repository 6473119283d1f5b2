import type { Migration } from '../migrate.ts';

/**
 * The dashboard's month-start comparison (docs/money.md, "Available for
 * financing"): Σ over active clients created before the month of
 * max(credit_limit − (used_credit − changed), 0), where `changed` is how much
 * the client's advances outstanding grew over this month and any later one
 * (client_advance_changes, 2026.11.28T03.00.00.client-advance-changes). Read
 * per request it was a pass over every client with entries this month
 * (docs/benchmarks.md); here the database keeps it for the months the
 * dashboard has asked for.
 *
 * A figure is the sum of `client_month_start_deltas` for its month. The first
 * read of a month (app/dashboard/metrics.server.ts) records the month in
 * `client_month_starts` and its figure read from every client, holding a SHARE
 * lock on both tables so no writer is half-way; from then on statement
 * triggers add what each statement changes:
 * - on `clients`: the client's figure after the statement less before it, with
 *   its `changed` as it stands (a deleted client's before it goes, while its
 *   changes still exist);
 * - on `client_advance_changes`: the figure with `changed` after the statement
 *   less with it before, with the client row as it stands, locked first.
 * The two telescope: whichever comes first, a ledger posting (which writes both)
 * adds what it changes and nothing else. Two transactions on one client are
 * serialised by the client row: `clients` writers lock it by updating it, the
 * other trigger locks it before it reads it.
 */
const ZONE = `'Europe/Zagreb'`;

/** How much a client's advances outstanding grew over `month` and after. */
const changedSince = (client: string, month: string) => `(SELECT coalesce(sum(a.change), 0) FROM client_advance_changes a WHERE a.client_id = ${client} AND a.month >= ${month})`;

/** A trigger function on `clients`: each tracked month's figure of `changes` (rows +1 or −1). */
function clientsFunction(name: string, kind: 'ROW' | 'STATEMENT', changes: Array<[rows: string, sign: 1 | -1]>) {
  const rows = changes.map(([source, sign]) => `SELECT ${sign} AS sign, r.id, r.status, r.created_at, r.credit_limit, r.used_credit FROM ${source} r`).join(' UNION ALL ');
  return /* sql */ `
    CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF EXISTS (SELECT 1 FROM client_month_starts) THEN
        INSERT INTO client_month_start_deltas (month, available)
          SELECT month, sum(available) FROM (
            SELECT m.month, x.sign * client_month_start_available(x.status, x.created_at, x.credit_limit, x.used_credit,
                                                                    ${changedSince('x.id', 'm.month')}, m.month) AS available
              FROM client_month_starts m, (${rows}) x) d
           GROUP BY month HAVING sum(available) <> 0;
      END IF;
      RETURN ${kind === 'ROW' ? 'OLD' : 'NULL'};
    END $$;`;
}

/** A trigger function on `client_advance_changes`: what `changes` (rows +1 or −1) move in each tracked month's figure. */
function changesFunction(name: string, changes: Array<[rows: string, sign: 1 | -1]>) {
  const rows = changes.map(([source, sign]) => `SELECT client_id, month, ${sign} * change AS change FROM ${source}`).join(' UNION ALL ');
  return /* sql */ `
    CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF EXISTS (SELECT 1 FROM client_month_starts) THEN
        -- The client rows first, in one order, so their state cannot move under the figure. NO KEY UPDATE, as an
        -- UPDATE of the row takes: a full FOR UPDATE would wait on the foreign-key checks of writers on the same client.
        PERFORM 1 FROM clients WHERE id IN (SELECT client_id FROM (${rows}) s) ORDER BY id FOR NO KEY UPDATE;
        INSERT INTO client_month_start_deltas (month, available)
          SELECT month, sum(available) FROM (
            SELECT m.month,
                   client_month_start_available(c.status, c.created_at, c.credit_limit, c.used_credit, n.changed, m.month)
                 - client_month_start_available(c.status, c.created_at, c.credit_limit, c.used_credit, n.changed - s.change, m.month) AS available
              FROM client_month_starts m
              JOIN LATERAL (SELECT client_id, sum(change) AS change FROM (${rows}) r WHERE r.month >= m.month GROUP BY client_id) s ON true
              JOIN clients c ON c.id = s.client_id
              CROSS JOIN LATERAL (SELECT ${changedSince('s.client_id', 'm.month')} AS changed) n) d
           GROUP BY month HAVING sum(available) <> 0;
      END IF;
      RETURN NULL;
    END $$;`;
}

export const up: Migration = async ({ context: db }) => {
  await db.query(/* sql */ `
    CREATE TABLE client_month_starts (
      month date PRIMARY KEY CHECK (extract(day FROM month) = 1)
    );
    CREATE TABLE client_month_start_deltas (
      id bigserial PRIMARY KEY,
      month date NOT NULL,
      available numeric(17, 2) NOT NULL
    );
    CREATE INDEX client_month_start_deltas_month_idx ON client_month_start_deltas (month);
    -- One client's changes from a month on (the triggers above), without reading the month's other clients.
    CREATE INDEX client_advance_changes_client_idx ON client_advance_changes (client_id, month) INCLUDE (change);

    -- What a client could draw at the start of \`month\` (a Croatian month's first day), with its limit and status now.
    CREATE FUNCTION client_month_start_available(status text, created_at timestamptz, credit_limit numeric, used_credit numeric,
                                                 changed numeric, month date) RETURNS numeric LANGUAGE sql STABLE AS $$
      SELECT CASE WHEN status = 'active' AND created_at < (CAST(month AS timestamp) AT TIME ZONE ${ZONE})
                  THEN greatest(coalesce(credit_limit, 0) - (used_credit - changed), 0) ELSE 0 END
    $$;

    ${clientsFunction('client_month_start_clients_inserted', 'STATEMENT', [['new_rows', 1]])}
    ${clientsFunction('client_month_start_clients_updated', 'STATEMENT', [
      ['new_rows', 1],
      ['old_rows', -1],
    ])}
    ${clientsFunction('client_month_start_client_deleting', 'ROW', [['(SELECT OLD.id, OLD.status, OLD.created_at, OLD.credit_limit, OLD.used_credit)', -1]])}
    ${changesFunction('client_month_start_changes_inserted', [['new_rows', 1]])}
    ${changesFunction('client_month_start_changes_updated', [
      ['new_rows', 1],
      ['old_rows', -1],
    ])}
    ${changesFunction('client_month_start_changes_deleted', [['old_rows', -1]])}
    CREATE FUNCTION client_month_start_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      DELETE FROM client_month_start_deltas;
      DELETE FROM client_month_starts;
      RETURN NULL;
    END $$;

    CREATE TRIGGER clients_month_start_insert AFTER INSERT ON clients
      REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION client_month_start_clients_inserted();
    CREATE TRIGGER clients_month_start_update AFTER UPDATE ON clients
      REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION client_month_start_clients_updated();
    -- Before the row goes: its changes are deleted with it (ON DELETE CASCADE), and its figure needs them.
    CREATE TRIGGER clients_month_start_delete BEFORE DELETE ON clients
      FOR EACH ROW EXECUTE FUNCTION client_month_start_client_deleting();
    CREATE TRIGGER clients_month_start_truncate AFTER TRUNCATE ON clients
      FOR EACH STATEMENT EXECUTE FUNCTION client_month_start_truncated();
    CREATE TRIGGER client_advance_changes_month_start_insert AFTER INSERT ON client_advance_changes
      REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION client_month_start_changes_inserted();
    CREATE TRIGGER client_advance_changes_month_start_update AFTER UPDATE ON client_advance_changes
      REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION client_month_start_changes_updated();
    CREATE TRIGGER client_advance_changes_month_start_delete AFTER DELETE ON client_advance_changes
      REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION client_month_start_changes_deleted();
    CREATE TRIGGER client_advance_changes_month_start_truncate AFTER TRUNCATE ON client_advance_changes
      FOR EACH STATEMENT EXECUTE FUNCTION client_month_start_truncated();

    -- Folds each tracked month's deltas into one row (the hourly housekeeping). Exact under concurrency: the
    -- DELETE takes only rows committed before it, and re-adds exactly their sums.
    CREATE FUNCTION compact_client_month_starts() RETURNS void LANGUAGE sql AS $$
      WITH gone AS (DELETE FROM client_month_start_deltas WHERE month IN (SELECT month FROM client_month_starts) RETURNING month, available)
      INSERT INTO client_month_start_deltas (month, available)
        SELECT month, sum(available) FROM gone GROUP BY month HAVING sum(available) <> 0;
    $$;
  `);
};

export const down: Migration = async ({ context: db }) => {
  await db.query(/* sql */ `
    DROP TRIGGER IF EXISTS clients_month_start_insert ON clients;
    DROP TRIGGER IF EXISTS clients_month_start_update ON clients;
    DROP TRIGGER IF EXISTS clients_month_start_delete ON clients;
    DROP TRIGGER IF EXISTS clients_month_start_truncate ON clients;
    DROP TRIGGER IF EXISTS client_advance_changes_month_start_insert ON client_advance_changes;
    DROP TRIGGER IF EXISTS client_advance_changes_month_start_update ON client_advance_changes;
    DROP TRIGGER IF EXISTS client_advance_changes_month_start_delete ON client_advance_changes;
    DROP TRIGGER IF EXISTS client_advance_changes_month_start_truncate ON client_advance_changes;
    DROP FUNCTION IF EXISTS client_month_start_clients_inserted(), client_month_start_clients_updated(),
      client_month_start_client_deleting(), client_month_start_changes_inserted(), client_month_start_changes_updated(),
      client_month_start_changes_deleted(), client_month_start_truncated(), compact_client_month_starts(),
      client_month_start_available(text, timestamptz, numeric, numeric, numeric, date);
    DROP INDEX IF EXISTS client_advance_changes_client_idx;
    DROP TABLE IF EXISTS client_month_start_deltas, client_month_starts;
  `);
};
