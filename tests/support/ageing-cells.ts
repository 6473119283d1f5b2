import { expect } from 'vitest';
import { selectRows } from '../../app/db.server.ts';
import type { AgeingAmounts, AgeingReport } from '../../app/analytics/ageing.server.ts';
import { AGEING_BUCKETS, type AgeingBucket, type AgeingBy } from '../../app/analytics/ageing.ts';
import { toCents } from '../../app/utils/money.ts';

/**
 * The ageing report's cells (docs/collections.md#ageing) computed independently
 * of the open book the database keeps for the report (open_book_changes and its
 * sums, kept by triggers), for its tests: in cents, per party id and bucket,
 * with the total and the invoice count.
 */
export type Cells = Map<string, Record<AgeingBucket | 'total' | 'invoices', number>>;

export const emptyCells = () => ({ notDue: 0, days1to30: 0, days31to60: 0, days61to90: 0, over90: 0, total: 0, invoices: 0 });

/**
 * From the recorded days alone — the client's ledger, the credit notes and the
 * invoices' `left_book_on` — summing whole histories up to `asOf`: an invoice
 * is in the book on `asOf` when its (positive) advance was booked on or before
 * it and it had not left the book (charged back or written off) on or before
 * it; its open amount is the amount plus its collection entries (negative)
 * booked up to it, less its credit notes issued up to it, counted while above
 * zero; the bucket is width_bucket over the days past due.
 */
export async function independentCells(asOf: string, by: AgeingBy): Promise<Cells> {
  const column = by === 'client' ? 'client_id' : 'customer_id';
  const rows = await selectRows<{ party: string; bucket: number; open: string; invoices: number }>(
    `WITH per_invoice AS (
       SELECT e.invoice_id,
              min(e.booked_on) FILTER (WHERE e.kind = 'advance' AND e.amount > 0) AS financed_on,
              coalesce(sum(e.amount) FILTER (WHERE e.kind = 'collection' AND e.booked_on <= CAST(:asOf AS date)), 0) AS collected
         FROM client_ledger e WHERE e.invoice_id IS NOT NULL GROUP BY e.invoice_id),
     credited AS (SELECT n.invoice_id, sum(n.amount) AS credited FROM credit_notes n WHERE n.issue_date <= CAST(:asOf AS date) GROUP BY n.invoice_id),
     open_then AS (
       SELECT inv.${column} AS party, inv.due_date, inv.amount + p.collected - coalesce(c.credited, 0) AS open
         FROM invoices inv JOIN per_invoice p ON p.invoice_id = inv.id LEFT JOIN credited c ON c.invoice_id = inv.id
        WHERE p.financed_on <= CAST(:asOf AS date) AND NOT coalesce(inv.left_book_on <= CAST(:asOf AS date), false))
     SELECT party, width_bucket(CAST(:asOf AS date) - due_date, ARRAY[1, 31, 61, 91]) AS bucket, sum(open) AS open, count(*)::int AS invoices
       FROM open_then WHERE open > 0 GROUP BY 1, 2`,
    { asOf },
  );
  const cells: Cells = new Map();
  for (const row of rows) {
    const cell = cells.get(row.party) ?? emptyCells();
    const cents = toCents(row.open);
    cell[AGEING_BUCKETS[row.bucket]] += cents;
    cell.total += cents;
    cell.invoices += row.invoices;
    cells.set(row.party, cell);
  }
  return cells;
}

/** One row's (or the totals') amounts in cents. */
export const cellsOf = (amounts: AgeingAmounts) => ({
  ...(Object.fromEntries(AGEING_BUCKETS.map((bucket) => [bucket, Math.round(amounts[bucket] * 100)])) as Record<AgeingBucket, number>),
  total: Math.round(amounts.total * 100),
  invoices: amounts.invoices,
});

export function reportCells(report: AgeingReport): Cells {
  return new Map(report.rows.map((row) => [row.id, cellsOf(row)]));
}

export function sumCells(cells: Cells) {
  const sum = emptyCells();
  for (const cell of cells.values()) for (const key of Object.keys(sum) as Array<keyof typeof sum>) sum[key] += cell[key];
  return sum;
}

/** The trigger-kept open book against its full recomputation: every invoice's changes, and the sums per key and period. */
export async function expectOpenBookRecomputed() {
  const kept = await selectRows<Record<string, unknown>>(`SELECT * FROM open_book_changes ORDER BY invoice_id, day`);
  const recomputed = await selectRows<Record<string, unknown>>(`SELECT * FROM open_book_changes_of(ARRAY(SELECT id FROM invoices)) ORDER BY invoice_id, day`);
  expect(kept).toEqual(recomputed);
  expect(kept.length).toBeGreaterThan(0);
  const sums = (sql: string) => selectRows<{ key: string; open: number; invoices: number }>(sql).then((rows) => new Map(rows.map((row) => [row.key, [row.open, row.invoices]])));
  const keyed = `t.scope || ':' || coalesce(t.party_id::text, t.due_date::text) || ':' || t.period || ':' || coalesce(t.period_start::text, '')`;
  const periods = `(VALUES ('all', NULL::date), ('year', CAST(date_trunc('year', c.day) AS date)), ('month', CAST(date_trunc('month', c.day) AS date))) AS p (period, period_start)`;
  expect(
    await sums(
      `SELECT ${keyed} AS key, CAST(sum(t.open_cents) AS bigint) AS open, CAST(sum(t.invoices) AS bigint) AS invoices
         FROM (SELECT scope, party_id, due_date, period, period_start, open_cents, invoices FROM open_book_totals
               UNION ALL SELECT scope, party_id, due_date, period, period_start, open_cents, invoices FROM open_book_deltas) t
        GROUP BY 1 HAVING sum(t.open_cents) <> 0 OR sum(t.invoices) <> 0`,
    ),
  ).toEqual(
    await sums(
      `SELECT ${keyed} AS key, CAST(sum(t.open_cents) AS bigint) AS open, CAST(sum(t.invoices) AS bigint) AS invoices
         FROM (SELECT s.scope, s.party_id, s.due_date, p.period, p.period_start, c.open_cents, c.invoices
                 FROM open_book_changes c
                 CROSS JOIN LATERAL (VALUES ('client', c.client_id, NULL::date), ('customer', c.customer_id, NULL), ('due_date', NULL::uuid, c.due_date)) AS s (scope, party_id, due_date)
                 CROSS JOIN LATERAL ${periods}) t
        GROUP BY 1 HAVING sum(t.open_cents) <> 0 OR sum(t.invoices) <> 0`,
    ),
  );
}
