/**
 * The client's account of a book that existed before the ledger
 * (docs/money.md#the-clients-account): every financed or paid invoice that
 * has no ledger entry yet gets the entries its history implies —
 *
 * - the advance (its `factor_amount`) on the financing day;
 * - the fee and its VAT from its fee e-invoice, or, when it has none, its
 *   `factor_fee` and 25 % of it (half-up), on the financing day;
 * - a collection (negative) per confirmed payment, on the day it was processed;
 * - a reserve release per payout of that kind that was not cancelled, on the
 *   day it was written.
 *
 * Then clients.used_credit and customers.used_credit are set to their ledger
 * sums (app/ledger/ledger.server.ts says how). Days are Croatian days.
 *
 * Set-based, so a book of a million invoices takes seconds per statement: the
 * invoices to write are chosen once into a temporary table (an invoice that
 * already has ledger rows is skipped, so a second run writes nothing), then
 * one INSERT … SELECT per kind. The statements must run in one session and in
 * order (the migration, the demo seed and bench/load-book.ts do, each in its
 * transaction). Plain SQL without replacements, so every caller can run it.
 * The factoring-contract migration runs it too, so it may read only columns
 * that exist once that migration has run.
 */
const DAY_OF = (timestamptz: string) => `CAST((${timestamptz} AT TIME ZONE 'Europe/Zagreb') AS date)`;

export const LEDGER_BACKFILL_STATEMENTS: ReadonlyArray<{ label: string; sql: string }> = [
  {
    label: 'ledger backfill: invoices without entries',
    sql: `DROP TABLE IF EXISTS pg_temp.ledger_backfill_invoices;
      CREATE TEMP TABLE ledger_backfill_invoices AS
        SELECT i.id, i.client_id, i.invoice_number, i.factor_amount, i.factor_fee, i.financed_by, ${DAY_OF('i.financed_at')} AS financed_on
          FROM invoices i
         WHERE i.factor_amount IS NOT NULL AND i.financed_at IS NOT NULL AND i.status IN ('financed', 'paid')
           AND NOT EXISTS (SELECT 1 FROM client_ledger l WHERE l.invoice_id = i.id);
      ALTER TABLE ledger_backfill_invoices ADD PRIMARY KEY (id);
      ANALYZE ledger_backfill_invoices`,
  },
  {
    label: 'ledger backfill: advances',
    sql: `INSERT INTO client_ledger (client_id, booked_on, kind, amount, invoice_id, description, created_by)
      SELECT b.client_id, b.financed_on, 'advance', b.factor_amount, b.id, b.invoice_number, b.financed_by
        FROM ledger_backfill_invoices b WHERE b.factor_amount > 0
       ORDER BY b.financed_on, b.id`,
  },
  {
    label: 'ledger backfill: fees',
    sql: `INSERT INTO client_ledger (client_id, booked_on, kind, amount, invoice_id, einvoice_id, description, created_by)
      SELECT b.client_id, b.financed_on, 'fee', coalesce(e.net_amount, b.factor_fee), b.id, e.id, coalesce(e.number, b.invoice_number), b.financed_by
        FROM ledger_backfill_invoices b
        LEFT JOIN outgoing_einvoices e ON e.invoice_id = b.id AND e.purpose = 'financing_fee'
       WHERE coalesce(e.net_amount, b.factor_fee, 0) > 0
       ORDER BY b.financed_on, b.id`,
  },
  {
    label: 'ledger backfill: VAT on fees',
    sql: `INSERT INTO client_ledger (client_id, booked_on, kind, amount, invoice_id, einvoice_id, description, created_by)
      SELECT b.client_id, b.financed_on, 'fee_vat', v.vat, b.id, e.id, coalesce(e.number, b.invoice_number), b.financed_by
        FROM ledger_backfill_invoices b
        LEFT JOIN outgoing_einvoices e ON e.invoice_id = b.id AND e.purpose = 'financing_fee'
        CROSS JOIN LATERAL (SELECT CASE WHEN e.id IS NOT NULL THEN e.vat_amount ELSE round(coalesce(b.factor_fee, 0) * 0.25, 2) END AS vat) v
       WHERE v.vat > 0
       ORDER BY b.financed_on, b.id`,
  },
  {
    label: 'ledger backfill: collections',
    sql: `INSERT INTO client_ledger (client_id, booked_on, kind, amount, invoice_id, payment_id, description, created_by)
      SELECT b.client_id, ${DAY_OF('coalesce(p.processed_at, p.created_at)')}, 'collection', -p.amount, b.id, p.id, b.invoice_number, p.processed_by
        FROM ledger_backfill_invoices b JOIN payments p ON p.invoice_id = b.id
       WHERE p.status = 'confirmed' AND p.amount > 0
       ORDER BY coalesce(p.processed_at, p.created_at), p.id`,
  },
  {
    label: 'ledger backfill: reserve releases',
    sql: `INSERT INTO client_ledger (client_id, booked_on, kind, amount, invoice_id, payout_id, description, created_by)
      SELECT b.client_id, ${DAY_OF('o.created_at')}, 'reserve_release', o.amount, b.id, o.id, b.invoice_number, o.created_by
        FROM ledger_backfill_invoices b JOIN payouts o ON o.invoice_id = b.id
       WHERE o.kind = 'reserve_release' AND o.status <> 'cancelled' AND o.amount > 0
       ORDER BY o.created_at, o.id`,
  },
  {
    label: 'ledger backfill: used credit from the ledger',
    sql: `WITH outstanding AS (
        SELECT i.client_id, i.customer_id, greatest(0, sum(l.amount)) AS open
          FROM client_ledger l JOIN invoices i ON i.id = l.invoice_id
         WHERE l.kind IN ('advance', 'collection')
         GROUP BY i.id),
      by_client AS (
        SELECT c.id, coalesce(sum(o.open), 0) AS used FROM clients c LEFT JOIN outstanding o ON o.client_id = c.id GROUP BY c.id),
      clients_done AS (
        UPDATE clients c SET used_credit = s.used FROM by_client s WHERE s.id = c.id AND c.used_credit IS DISTINCT FROM s.used RETURNING c.id),
      by_customer AS (
        SELECT u.id, coalesce(sum(o.open), 0) AS used FROM customers u LEFT JOIN outstanding o ON o.customer_id = u.id GROUP BY u.id)
      UPDATE customers u SET used_credit = s.used FROM by_customer s WHERE s.id = u.id AND u.used_credit IS DISTINCT FROM s.used`,
  },
  { label: 'ledger backfill: done', sql: 'DROP TABLE IF EXISTS pg_temp.ledger_backfill_invoices' },
];
