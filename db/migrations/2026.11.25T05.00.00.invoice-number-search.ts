import type { Migration } from '../migrate.ts';

/**
 * What the invoice pages offer, made cheap on a large book.
 *
 * Number search by any fragment ('0042' finds 'R-2025-00421'). A trigram
 * index cannot serve it on a book of numbers that share most of their
 * characters ('R-2025-000' asks for trigrams that half the book holds, and
 * the recheck reads them all), and an index of every suffix is three times
 * the size of the table. `invoice_number_grams` lists the number's pieces of
 * 6 characters (lower case), one starting at each position, so the last few
 * are shorter; GIN indexes them. `invoice_number_fragment` turns a search term into a query
 * on them: a term of up to 6 characters is a prefix of the piece where it
 * starts, so `'term':*` finds exactly the numbers that contain it; a longer
 * term needs every one of its 6-character pieces, which narrows to a few
 * candidates that the caller checks (app/search.server.ts). The start and
 * end indexes that served the old "starts or ends with" search go.
 *
 * What a new payment may still cover. `invoices.pending_amount` is the sum of
 * the invoice's pending payments, kept by statement triggers on `payments`
 * (any writer: the domain, the bank import, the demo seed), so "open for a new
 * payment" is amount − paid_amount − pending_amount on the row itself
 * (app/payments/open-amount.server.ts), and the payable list has a partial
 * index in its order. The invoice's updated_at stays as it was when only this
 * total changes: the updated_at trigger now fires for direct updates only.
 */
const GRAM = 6;

/** A trigger function adding the pending amounts of `changes` (new rows +, old rows −) to their invoices. */
function pendingFunction(name: string, changes: Array<[rows: string, sign: 1 | -1]>) {
  const rows = changes.map(([table, sign]) => `SELECT invoice_id, ${sign} * amount AS delta FROM ${table} WHERE status = 'pending'`).join(' UNION ALL ');
  return /* sql */ `
    CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE invoices i SET pending_amount = i.pending_amount + d.delta
        FROM (SELECT invoice_id, sum(delta) AS delta FROM (${rows}) c GROUP BY invoice_id HAVING sum(delta) <> 0) d
       WHERE i.id = d.invoice_id;
      RETURN NULL;
    END $$;`;
}

export const up: Migration = async ({ context: db }) => {
  await db.query(/* sql */ `
    SET LOCAL maintenance_work_mem = '256MB';

    -- PL/pgSQL: a quarter of the cost of the same in SQL, which counts when a query must recheck rows.
    CREATE FUNCTION invoice_number_grams(number text) RETURNS tsvector
      LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
      DECLARE
        n text := lower(number);
        pieces text[] := '{}';
      BEGIN
        FOR i IN 1 .. length(n) LOOP
          pieces := pieces || substr(n, i, ${GRAM});
        END LOOP;
        RETURN array_to_tsvector(pieces);
      END $$;
    -- Lexemes quoted for tsquery input: quotes doubled, backslashes escaped.
    CREATE FUNCTION invoice_number_fragment(term text) RETURNS tsquery
      LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
        SELECT CAST(CASE
                 WHEN length(t) <= ${GRAM} THEN '''' || replace(replace(t, '\\', '\\\\'), '''', '''''') || ''':*'
                 ELSE (SELECT string_agg('''' || replace(replace(substr(t, i, ${GRAM}), '\\', '\\\\'), '''', '''''') || '''', ' & ')
                         FROM generate_series(1, length(t) - ${GRAM - 1}) AS i)
               END AS tsquery)
          FROM (SELECT lower(term) AS t) AS s
      $$;
    -- The query of a term this short finds exactly the numbers that contain it (no check of the rows needed).
    CREATE FUNCTION invoice_number_fragment_is_exact(term text) RETURNS boolean
      LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$ SELECT length(lower(term)) <= ${GRAM} $$;
    CREATE INDEX invoices_number_grams_idx ON invoices USING gin (invoice_number_grams(invoice_number));
    -- The trigram index on the number goes too: given the choice, the planner fetched candidates through it and
    -- computed every candidate's pieces to filter them. Other searches of the number (payments, e-invoices) OR it
    -- with other tables' columns, which no index of this table serves.
    DROP INDEX invoices_number_prefix_idx, invoices_number_suffix_idx, invoices_number_trgm_idx;

    ALTER TABLE invoices ADD COLUMN pending_amount numeric(15, 2) NOT NULL DEFAULT 0 CHECK (pending_amount >= 0);
    DROP TRIGGER invoices_set_updated_at ON invoices;
    UPDATE invoices i SET pending_amount = p.total
      FROM (SELECT invoice_id, sum(amount) AS total FROM payments WHERE status = 'pending' GROUP BY invoice_id) p
     WHERE i.id = p.invoice_id;
    -- pg_trigger_depth() is 0 for a statement of the application, 1 inside the payments triggers below.
    CREATE TRIGGER invoices_set_updated_at BEFORE UPDATE ON invoices
      FOR EACH ROW WHEN (pg_trigger_depth() = 0) EXECUTE FUNCTION set_updated_at();

    ${pendingFunction('payments_pending_inserted', [['new_rows', 1]])}
    ${pendingFunction('payments_pending_updated', [
      ['new_rows', 1],
      ['old_rows', -1],
    ])}
    ${pendingFunction('payments_pending_deleted', [['old_rows', -1]])}
    CREATE FUNCTION payments_pending_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE invoices SET pending_amount = 0 WHERE pending_amount <> 0;
      RETURN NULL;
    END $$;
    CREATE TRIGGER payments_pending_insert AFTER INSERT ON payments
      REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION payments_pending_inserted();
    CREATE TRIGGER payments_pending_update AFTER UPDATE ON payments
      REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION payments_pending_updated();
    CREATE TRIGGER payments_pending_delete AFTER DELETE ON payments
      REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION payments_pending_deleted();
    CREATE TRIGGER payments_pending_truncate AFTER TRUNCATE ON payments
      FOR EACH STATEMENT EXECUTE FUNCTION payments_pending_truncated();

    -- The payable list (GET /api/invoices/payable, the record-payment form) in its order; its predicate is app/payments/open-amount.server.ts payableSql.
    CREATE INDEX invoices_payable_idx ON invoices (created_at DESC, id DESC)
      WHERE status = 'financed' AND amount > paid_amount + pending_amount;
  `);
};

export const down: Migration = async ({ context: db }) => {
  await db.query(/* sql */ `
    DROP INDEX IF EXISTS invoices_payable_idx, invoices_number_grams_idx;
    DROP TRIGGER IF EXISTS payments_pending_insert ON payments;
    DROP TRIGGER IF EXISTS payments_pending_update ON payments;
    DROP TRIGGER IF EXISTS payments_pending_delete ON payments;
    DROP TRIGGER IF EXISTS payments_pending_truncate ON payments;
    DROP FUNCTION IF EXISTS payments_pending_inserted(), payments_pending_updated(), payments_pending_deleted(), payments_pending_truncated(),
      invoice_number_grams(text), invoice_number_fragment(text), invoice_number_fragment_is_exact(text);
    DROP TRIGGER IF EXISTS invoices_set_updated_at ON invoices;
    CREATE TRIGGER invoices_set_updated_at BEFORE UPDATE ON invoices FOR EACH ROW EXECUTE FUNCTION set_updated_at();
    ALTER TABLE invoices DROP COLUMN IF EXISTS pending_amount;
    CREATE INDEX IF NOT EXISTS invoices_number_prefix_idx ON invoices (lower(invoice_number) text_pattern_ops);
    CREATE INDEX IF NOT EXISTS invoices_number_suffix_idx ON invoices (reverse(lower(invoice_number)) text_pattern_ops);
    CREATE INDEX IF NOT EXISTS invoices_number_trgm_idx ON invoices USING gin (invoice_number gin_trgm_ops);
  `);
};
