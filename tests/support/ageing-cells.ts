import { selectRows } from '../../app/db.server.ts';
import type { AgeingAmounts, AgeingReport } from '../../app/analytics/ageing.server.ts';
import { AGEING_BUCKETS, type AgeingBucket, type AgeingBy } from '../../app/analytics/ageing.ts';
import { toCents } from '../../app/utils/money.ts';

/**
 * The ageing report's cells (docs/collections.md#ageing) computed independently
 * of the report's roll-back from today's book, for its tests: in cents, per
 * party id and bucket, with the total and the invoice count.
 */
export type Cells = Map<string, Record<AgeingBucket | 'total' | 'invoices', number>>;

export const emptyCells = () => ({ notDue: 0, days1to30: 0, days31to60: 0, days61to90: 0, over90: 0, total: 0, invoices: 0 });

/**
 * From the client's ledger and the invoices' closing days alone: an invoice
 * is in the book on `asOf` when its (positive) advance was booked on or
 * before it and it was not charged back or written off on or before it; its
 * open amount is the amount plus its collection entries (negative) booked up
 * to it; the bucket is width_bucket over the days past due.
 */
export async function independentCells(asOf: string, by: AgeingBy): Promise<Cells> {
  const column = by === 'client' ? 'client_id' : 'customer_id';
  const rows = await selectRows<{ party: string; bucket: number; open: string; invoices: number }>(
    `WITH per_invoice AS (
       SELECT e.invoice_id,
              min(e.booked_on) FILTER (WHERE e.kind = 'advance' AND e.amount > 0) AS financed_on,
              coalesce(sum(e.amount) FILTER (WHERE e.kind = 'collection' AND e.booked_on <= CAST(:asOf AS date)), 0) AS collected
         FROM client_ledger e WHERE e.invoice_id IS NOT NULL GROUP BY e.invoice_id)
     SELECT inv.${column} AS party, width_bucket(CAST(:asOf AS date) - inv.due_date, ARRAY[1, 31, 61, 91]) AS bucket,
            sum(inv.amount + p.collected) AS open, count(*)::int AS invoices
       FROM invoices inv JOIN per_invoice p ON p.invoice_id = inv.id
      WHERE p.financed_on <= CAST(:asOf AS date) AND inv.amount + p.collected > 0
        AND NOT coalesce(CAST(coalesce(inv.charged_back_at, inv.written_off_at) AT TIME ZONE 'Europe/Zagreb' AS date) <= CAST(:asOf AS date), false)
      GROUP BY 1, 2`,
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
