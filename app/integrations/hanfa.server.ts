import { createHash } from 'node:crypto';
import { selectOne } from '../db.server.ts';
import { adapterCalls, IntegrationError, liveStatusTest, liveJson, type IntegrationConfig } from './core.server.ts';
import type { IntegrationAdapter } from './types.ts';
import { sqlFromBusinessLocal } from '../utils/business-time.ts';

/**
 * HANFA (the national securities regulator, docs/croatian-formats.md): a factoring company
 * reports its book every quarter. The figures are computed in SQL from the
 * invoices; the sandbox answers a receipt id derived from the period and the
 * figures (same book, same receipt), live POSTs them to {endpoint}/reports.
 */
export interface QuarterlyFigures {
  period: string;
  from: string;
  to: string;
  /** Invoices financed in the quarter. */
  financedCount: number;
  financedVolume: number;
  advances: number;
  fees: number;
  /** Financed invoices paid in the quarter. */
  settledCount: number;
  /** At the end of the quarter: financed, not yet paid. */
  outstandingCount: number;
  outstandingAdvances: number;
  overdueCount: number;
  overdueAmount: number;
  clients: number;
  customers: number;
}
export interface HanfaReceipt {
  receiptId: string;
  submittedAt: string;
  figures: QuarterlyFigures;
}
export interface HanfaAdapter extends IntegrationAdapter {
  submitQuarterlyReport(period: string): Promise<HanfaReceipt>;
}

export const PERIOD_PATTERN = /^(\d{4})-Q([1-4])$/;

export function quarterBounds(period: string): { from: string; to: string } {
  const match = PERIOD_PATTERN.exec(period);
  if (!match) throw new IntegrationError('integrations.errors.invalidPeriod');
  const year = Number(match[1]);
  const quarter = Number(match[2]);
  const from = new Date(Date.UTC(year, (quarter - 1) * 3, 1));
  const to = new Date(Date.UTC(year, quarter * 3, 1));
  return { from: from.toISOString().slice(0, 10), to: to.toISOString().slice(0, 10) };
}

/** The quarter before the one `now` falls in (the one due for reporting). */
export function previousQuarter(now = new Date()): string {
  const quarter = Math.floor(now.getUTCMonth() / 3) + 1;
  return quarter === 1 ? `${now.getUTCFullYear() - 1}-Q4` : `${now.getUTCFullYear()}-Q${quarter - 1}`;
}

const num = (value: string | number | null) => Math.round(Number(value ?? 0) * 100) / 100;

/** The report's figures, all from one SQL statement over the book (Croatian dates: the quarter is [from, to) in Europe/Zagreb). */
export async function quarterlyFigures(period: string): Promise<QuarterlyFigures> {
  const { from, to } = quarterBounds(period);
  const row = await selectOne<Record<string, string | number | null>>(
    `WITH bounds AS (
       SELECT ${sqlFromBusinessLocal('CAST(:from AS date)::timestamp')} AS t0,
              ${sqlFromBusinessLocal('CAST(:to AS date)::timestamp')} AS t1
     ),
     open_at_end AS (
       SELECT i.* FROM invoices i, bounds b
        WHERE i.financed_at < b.t1 AND (i.paid_at IS NULL OR i.paid_at >= b.t1)
     )
     SELECT
       (SELECT count(*) FROM invoices i, bounds b WHERE i.financed_at >= b.t0 AND i.financed_at < b.t1) AS financed_count,
       (SELECT coalesce(sum(amount), 0) FROM invoices i, bounds b WHERE i.financed_at >= b.t0 AND i.financed_at < b.t1) AS financed_volume,
       (SELECT coalesce(sum(factor_amount), 0) FROM invoices i, bounds b WHERE i.financed_at >= b.t0 AND i.financed_at < b.t1) AS advances,
       (SELECT coalesce(sum(factor_fee), 0) FROM invoices i, bounds b WHERE i.financed_at >= b.t0 AND i.financed_at < b.t1) AS fees,
       (SELECT count(*) FROM invoices i, bounds b WHERE i.financed_at IS NOT NULL AND i.paid_at >= b.t0 AND i.paid_at < b.t1) AS settled_count,
       (SELECT count(*) FROM open_at_end) AS outstanding_count,
       (SELECT coalesce(sum(factor_amount), 0) FROM open_at_end) AS outstanding_advances,
       (SELECT count(*) FROM open_at_end WHERE due_date < CAST(:to AS date)) AS overdue_count,
       (SELECT coalesce(sum(amount), 0) FROM open_at_end WHERE due_date < CAST(:to AS date)) AS overdue_amount,
       (SELECT count(DISTINCT client_id) FROM open_at_end) AS clients,
       (SELECT count(DISTINCT customer_id) FROM open_at_end) AS customers`,
    { from, to },
  );
  const r = row ?? {};
  return {
    period,
    from,
    to,
    financedCount: Number(r.financed_count ?? 0),
    financedVolume: num(r.financed_volume),
    advances: num(r.advances),
    fees: num(r.fees),
    settledCount: Number(r.settled_count ?? 0),
    outstandingCount: Number(r.outstanding_count ?? 0),
    outstandingAdvances: num(r.outstanding_advances),
    overdueCount: Number(r.overdue_count ?? 0),
    overdueAmount: num(r.overdue_amount),
    clients: Number(r.clients ?? 0),
    customers: Number(r.customers ?? 0),
  };
}

export function sandboxReceiptId(figures: QuarterlyFigures): string {
  return `HANFA-SBX-${createHash('sha256').update(JSON.stringify(figures)).digest('hex').slice(0, 16).toUpperCase()}`;
}

export const sandboxHanfa: HanfaAdapter = {
  async test() {
    return { ok: true, message: 'HANFA sandbox is available (reports are receipted locally)' };
  },
  async submitQuarterlyReport(period) {
    const figures = await quarterlyFigures(period);
    return { receiptId: sandboxReceiptId(figures), submittedAt: new Date().toISOString(), figures };
  },
};

export function liveHanfa(config: IntegrationConfig): HanfaAdapter {
  return {
    test: () => liveStatusTest(config),
    async submitQuarterlyReport(period) {
      const figures = await quarterlyFigures(period);
      const body = await liveJson<{ receiptId?: unknown }>(config, 'reports', {
        method: 'POST',
        body: JSON.stringify({ type: 'factoring-quarterly', ...figures }),
        contentType: 'application/json',
      });
      if (typeof body.receiptId !== 'string') throw new IntegrationError('integrations.errors.noReceiptId', { name: config.name });
      return { receiptId: body.receiptId, submittedAt: new Date().toISOString(), figures };
    },
  };
}

export function getHanfa(base?: HanfaAdapter): HanfaAdapter {
  const { test, call } = adapterCalls('hanfa', (config) => (config.mode === 'live' ? liveHanfa(config) : sandboxHanfa), base);
  return {
    test,
    submitQuarterlyReport: (period) =>
      call(
        'submitQuarterlyReport',
        (hanfa) => hanfa.submitQuarterlyReport(period),
        (receipt) => ({
          success: true,
          message: `Quarterly report ${period} accepted, receipt ${receipt.receiptId} (${receipt.figures.financedCount} financed, ${receipt.figures.financedVolume.toFixed(2)} EUR)`,
        }),
      ),
  };
}
