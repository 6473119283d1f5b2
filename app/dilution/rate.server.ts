import type { Transaction } from 'sequelize';
import { selectOne } from '../db.server.ts';
import { money } from '../utils/api-values.ts';
import { SQL_BUSINESS_TODAY, sqlFromBusinessLocal } from '../utils/business-time.ts';
import { isCalendarDate } from '../utils/validation.ts';

/**
 * The dilution rate (docs/collections.md#dilution-and-disputes-resolved): the
 * credit notes issued in the last 12 months ÷ the amount (face value) of the
 * invoices financed in the same 12 months, per client, per debtor or for the
 * whole book. The 12 months end today (Croatia) and start the day after the
 * same day a year earlier: from 2025-03-16 to 2026-03-15. A credit note
 * counts by its issue date, an invoice by the Croatian day it was financed.
 * The rate is a percentage with two decimals, half-up, computed in SQL;
 * null when nothing was financed in the window.
 */
export interface DilutionDto {
  /** First and last day of the window, YYYY-MM-DD. */
  from: string;
  to: string;
  /** Σ credit notes issued in the window, EUR. */
  creditNotes: number;
  /** Σ amount of the invoices financed in the window, EUR. */
  financed: number;
  /** creditNotes ÷ financed × 100, two decimals; null when financed is 0. */
  rate: number | null;
}

export type DilutionScope = { kind: 'client' | 'customer'; id: string } | { kind: 'book' };

export async function dilutionOf(scope: DilutionScope, options: { asOf?: string | null; transaction?: Transaction | null } = {}): Promise<DilutionDto> {
  const asOf = options.asOf && isCalendarDate(options.asOf) ? options.asOf : null;
  const own = scope.kind === 'book' ? 'true' : `i.${scope.kind === 'client' ? 'client_id' : 'customer_id'} = :id`;
  const row = (await selectOne<{ from: string; to: string; credited: string; financed: string; rate: string | null }>(
    `WITH w AS (SELECT coalesce(CAST(:asOf AS date), ${SQL_BUSINESS_TODAY}) AS today),
          win AS (SELECT today, CAST(today - interval '12 months' AS date) + 1 AS first FROM w),
          figures AS (
            SELECT (SELECT coalesce(sum(n.amount), 0) FROM credit_notes n JOIN invoices i ON i.id = n.invoice_id
                     WHERE ${own} AND n.issue_date >= win.first AND n.issue_date <= win.today) AS credited,
                   (SELECT coalesce(sum(i.amount), 0) FROM invoices i
                     WHERE ${own} AND i.financed_at >= ${sqlFromBusinessLocal('CAST(win.first AS timestamp)')}
                       AND i.financed_at < ${sqlFromBusinessLocal('CAST(win.today + 1 AS timestamp)')}) AS financed
              FROM win)
     SELECT to_char(win.first, 'YYYY-MM-DD') AS from, to_char(win.today, 'YYYY-MM-DD') AS to, f.credited, f.financed,
            round(100 * f.credited / nullif(f.financed, 0), 2) AS rate
       FROM win, figures f`,
    { asOf, id: scope.kind === 'book' ? null : scope.id },
    { transaction: options.transaction },
  ))!;
  return { from: row.from, to: row.to, creditNotes: money(row.credited), financed: money(row.financed), rate: row.rate === null ? null : Number(row.rate) };
}
