import type { Transaction } from 'sequelize';
import { execute, selectRows } from '../db.server.ts';
import { INVOICE_STATUSES, type InvoiceStatus } from './schemas.ts';

/**
 * Invoice counts kept by the database itself (migration
 * 2026.11.22T12.00.00.invoice-summaries): statement triggers append every
 * change to insert-only delta tables, so these sums are exact at any moment
 * and cost a few hundred rows instead of a scan of the book.
 */
export type StatusTotals = Record<InvoiceStatus, number> & { all: number; everApproved: number };

export async function invoiceStatusTotals(options: { transaction?: Transaction } = {}): Promise<StatusTotals> {
  const rows = await selectRows<{ status: InvoiceStatus; invoices: number; ever_approved: number }>(
    `SELECT status, sum(invoices)::int AS invoices, sum(ever_approved)::int AS ever_approved FROM invoice_status_deltas GROUP BY status`,
    {},
    options,
  );
  const totals = { all: 0, everApproved: 0, ...Object.fromEntries(INVOICE_STATUSES.map((status) => [status, 0])) } as StatusTotals;
  for (const row of rows) {
    totals[row.status] = row.invoices;
    totals.all += row.invoices;
    totals.everApproved += row.ever_approved;
  }
  return totals;
}

export interface DayTotals {
  /** YYYY-MM-DD, a Croatian calendar day. */
  date: string;
  received: number;
  processed: number;
  approved: number;
}

/** Per Croatian day from `from` to `to` (inclusive, YYYY-MM-DD): invoices created, verified and approved; days without any are 0. */
export async function invoiceDayTotals(from: string, to: string): Promise<DayTotals[]> {
  return selectRows<DayTotals>(
    `SELECT to_char(d.day, 'YYYY-MM-DD') AS date, coalesce(sum(x.received), 0)::int AS received,
            coalesce(sum(x.processed), 0)::int AS processed, coalesce(sum(x.approved), 0)::int AS approved
       FROM generate_series(CAST(:from AS date), CAST(:to AS date), interval '1 day') AS d (day)
       LEFT JOIN invoice_day_deltas x ON x.day = CAST(d.day AS date)
      GROUP BY d.day ORDER BY d.day`,
    { from, to },
  );
}

/** Invoices a payment may still be recorded against (`payableSql`), kept by migration 2026.11.28T09.00.00.payable-total. */
export async function payableInvoiceTotal(options: { transaction?: Transaction } = {}): Promise<number> {
  const row = await selectRows<{ invoices: number }>(`SELECT coalesce(sum(invoices), 0)::int AS invoices FROM invoice_payable_deltas`, {}, options);
  return row[0]?.invoices ?? 0;
}

/** Folds the deltas into one row per key (hourly housekeeping); the sums do not change. */
export async function compactInvoiceSummaries(): Promise<void> {
  await execute('SELECT compact_invoice_summaries()');
}
