import { selectOne, selectRows } from '../db.server.ts';
import { centsToNumber, toCents } from '../utils/money.ts';
import { ANALYTICS_PERIODS, SERIES_BUCKET, type AnalyticsPeriod } from './periods.ts';
import { BUSINESS_TIME_ZONE, businessDay } from '../utils/business-time.ts';
import { dilutionOf, type DilutionDto } from '../dilution/rate.server.ts';

/**
 * /analytics and GET /api/analytics (docs/screens.md): the figures of
 * the factoring book for a period, every one a sum, count or average in SQL.
 *
 * The period is the last N Croatian calendar days (Europe/Zagreb), today
 * included: 7d = 7 days, 30d = 30, 90d = 90, 1y = 365. It starts at the
 * Croatian midnight of its first day and ends at `now`.
 *
 * Flow figures (they change with the period):
 * - financingVolume: Σ factor_amount (the advances paid out) of invoices financed in the period;
 * - turnover: Σ amount (face value) of the invoices financed in the period;
 * - feeIncome: Σ factor_fee of the invoices financed in the period;
 * - dso: average days from issue_date to the Croatian day of paid_at, over the
 *   invoices paid in the period, one decimal; null when none was paid;
 * - series: financingVolume per day (7d, 30d), per ISO week (90d) or per
 *   calendar month (1y); the first bucket starts at the period's first day, so
 *   the buckets add up to financingVolume.
 *
 * Stock figures (the book as it stands at `now`; the same for every period):
 * - open financed amount: Σ factor_amount of invoices with status financed (advanced, not yet paid);
 * - overdueRate: the part of it whose due_date is before today, percent of it, one decimal;
 * - defaultRate: the part of it more than 90 days past due (due_date < today − 90),
 *   percent of it, one decimal. Ninety days past due is the regulatory (CRR art. 178)
 *   default trigger; nothing is written off here, it is a rate over what is still open;
 * - riskDistribution: clients by risk_category (unassessed as 'none'), with their open advances;
 * - topClients: the 10 clients with the largest open advances;
 * - topCustomers: the 10 customers with the largest open amount owed on financed
 *   invoices (amount − paid_amount − credited_amount);
 * - concentration: the largest one's share of the total open exposure (percent,
 *   one decimal) and the Herfindahl–Hirschman index Σ shareᵢ² × 10 000 (0 to
 *   10 000, one decimal), for clients and for customers; null when nothing is open.
 *
 * Dilution (the last 12 months to `now`'s Croatian day, whatever the period;
 * app/dilution/rate.server.ts): credit notes issued ÷ amount of the invoices
 * financed, percent with two decimals.
 */
export const ANALYTICS_TIME_ZONE = BUSINESS_TIME_ZONE;
/** Days past due after which an open financed invoice counts as defaulted. */
export const DEFAULT_DAYS_PAST_DUE = 90;
export const TOP_LIMIT = 10;

export interface SeriesPoint {
  /** The bucket's first day in the period, YYYY-MM-DD. */
  start: string;
  /** Financing volume (Σ factor_amount) financed in the bucket, EUR. */
  volume: number;
  /** Invoices financed in the bucket. */
  count: number;
}

export interface ExposureRow {
  id: string;
  companyName: string;
  /** Open exposure in EUR. */
  exposure: number;
  /** Open financed invoices. */
  invoices: number;
  /** Share of the total open exposure, percent, one decimal. */
  share: number;
}

export interface Concentration {
  total: number;
  largestShare: number | null;
  hhi: number | null;
}

export interface Analytics {
  period: AnalyticsPeriod;
  /** First and last Croatian day of the period, YYYY-MM-DD. */
  from: string;
  to: string;
  financingVolume: number;
  turnover: number;
  feeIncome: number;
  financedCount: number;
  dso: number | null;
  paidCount: number;
  openFinanced: number;
  overdueAmount: number;
  overdueRate: number | null;
  defaultAmount: number;
  defaultRate: number | null;
  riskDistribution: { category: 'low' | 'medium' | 'high' | 'none'; clients: number; exposure: number }[];
  topClients: ExposureRow[];
  topCustomers: ExposureRow[];
  concentration: { clients: Concentration; customers: Concentration };
  series: SeriesPoint[];
  dilution: DilutionDto;
}

const eur = (value: string | number | null | undefined) => centsToNumber(toCents(value ?? 0));
const num = (value: string | number | null | undefined) => (value === null || value === undefined ? null : Number(value));

/** today, the period's first day and its first instant (Croatian midnight). */
const BOUNDS = `
  SELECT CAST(CAST(:now AS timestamptz) AT TIME ZONE :tz AS date) AS today,
         CAST(CAST(:now AS timestamptz) AT TIME ZONE :tz AS date) - (:days - 1) AS first_day,
         CAST(CAST(CAST(:now AS timestamptz) AT TIME ZONE :tz AS date) - (:days - 1) AS timestamp) AT TIME ZONE :tz AS starts,
         CAST(:now AS timestamptz) AS ends`;

/** Open exposure per client (advances) or customer (amount still owed), with share and concentration. */
async function exposure(kind: 'client' | 'customer', replacements: Record<string, unknown>) {
  const table = kind === 'client' ? 'clients' : 'customers';
  const column = kind === 'client' ? 'client_id' : 'customer_id';
  const open = kind === 'client' ? 'i.factor_amount' : 'i.amount - i.paid_amount - i.credited_amount';
  const [top, summary] = await Promise.all([
    selectRows<{ id: string; company_name: string; exposure: string; invoices: number; share: string }>(
      `WITH per AS (
         SELECT i.${column} AS id, sum(${open}) AS exposure, count(*)::int AS invoices
           FROM invoices i WHERE i.status = 'financed' GROUP BY i.${column}),
       total AS (SELECT sum(exposure) AS total FROM per)
       SELECT p.id, e.company_name, p.exposure, p.invoices, round(100 * p.exposure / nullif(t.total, 0), 1) AS share
         FROM per p JOIN ${table} e ON e.id = p.id CROSS JOIN total t
        WHERE p.exposure > 0
        ORDER BY p.exposure DESC, e.company_name, p.id
        LIMIT :limit`,
      replacements,
    ),
    selectOne<{ total: string | null; largest: string | null; hhi: string | null }>(
      `WITH per AS (SELECT sum(${open}) AS exposure FROM invoices i WHERE i.status = 'financed' GROUP BY i.${column}),
            total AS (SELECT sum(exposure) AS total FROM per)
       SELECT t.total,
              round(100 * max(p.exposure) / nullif(t.total, 0), 1) AS largest,
              round(10000 * sum(p.exposure * p.exposure) / nullif(t.total * t.total, 0), 1) AS hhi
         FROM total t LEFT JOIN per p ON true GROUP BY t.total`,
      replacements,
    ),
  ]);
  return {
    top: top.map((row) => ({ id: row.id, companyName: row.company_name, exposure: eur(row.exposure), invoices: row.invoices, share: Number(row.share) })),
    concentration: { total: eur(summary?.total), largestShare: num(summary?.largest), hhi: num(summary?.hhi) },
  };
}

export async function analyticsFor({ period, now = new Date() }: { period: AnalyticsPeriod; now?: Date }): Promise<Analytics> {
  const replacements = {
    now: now.toISOString(),
    tz: ANALYTICS_TIME_ZONE,
    days: ANALYTICS_PERIODS[period],
    bucket: SERIES_BUCKET[period],
    defaultDays: DEFAULT_DAYS_PAST_DUE,
    limit: TOP_LIMIT,
  };
  const [flow, stock, risk, series, clients, customers, dilution] = await Promise.all([
    selectOne<{ from: string; to: string; volume: string; turnover: string; fees: string; financed: number; dso: string | null; paid: number }>(
      `WITH b AS (${BOUNDS})
       SELECT to_char(b.first_day, 'YYYY-MM-DD') AS from, to_char(b.today, 'YYYY-MM-DD') AS to,
              coalesce(f.volume, 0) AS volume, coalesce(f.turnover, 0) AS turnover, coalesce(f.fees, 0) AS fees, f.financed,
              p.dso, p.paid
         FROM b
         CROSS JOIN LATERAL (
           SELECT sum(i.factor_amount) AS volume, sum(i.amount) AS turnover, sum(i.factor_fee) AS fees, count(*)::int AS financed
             FROM invoices i WHERE i.financed_at >= b.starts AND i.financed_at <= b.ends) f
         CROSS JOIN LATERAL (
           SELECT round(avg(CAST(i.paid_at AT TIME ZONE :tz AS date) - i.issue_date), 1) AS dso, count(*)::int AS paid
             FROM invoices i WHERE i.paid_at >= b.starts AND i.paid_at <= b.ends) p`,
      replacements,
    ),
    selectOne<{ open: string; overdue: string; defaulted: string }>(
      `WITH b AS (${BOUNDS})
       SELECT coalesce(sum(i.factor_amount), 0) AS open,
              coalesce(sum(i.factor_amount) FILTER (WHERE i.due_date < b.today), 0) AS overdue,
              coalesce(sum(i.factor_amount) FILTER (WHERE i.due_date < b.today - :defaultDays), 0) AS defaulted
         FROM b LEFT JOIN invoices i ON i.status = 'financed'`,
      replacements,
    ),
    selectRows<{ category: 'low' | 'medium' | 'high' | 'none'; clients: number; exposure: string }>(
      `WITH categories(category, position) AS (VALUES ('low', 1), ('medium', 2), ('high', 3), ('none', 4)),
            open AS (SELECT client_id, sum(factor_amount) AS exposure FROM invoices WHERE status = 'financed' GROUP BY client_id)
       SELECT k.category, count(c.id)::int AS clients, coalesce(sum(o.exposure), 0) AS exposure
         FROM categories k
         LEFT JOIN clients c ON coalesce(c.risk_category, 'none') = k.category
         LEFT JOIN open o ON o.client_id = c.id
        GROUP BY k.category, k.position ORDER BY k.position`,
    ),
    selectRows<{ start: string; volume: string; count: number }>(
      `WITH b AS (${BOUNDS}),
            days AS (SELECT CAST(d AS date) AS day FROM b, generate_series(b.first_day, b.today, interval '1 day') AS d),
            buckets AS (SELECT DISTINCT greatest(CAST(date_trunc(:bucket, d.day) AS date), b.first_day) AS start FROM days d, b),
            financed AS (
              SELECT greatest(CAST(date_trunc(:bucket, CAST(i.financed_at AT TIME ZONE :tz AS date)) AS date), b.first_day) AS start,
                     i.factor_amount
                FROM invoices i, b WHERE i.financed_at >= b.starts AND i.financed_at <= b.ends)
       SELECT to_char(k.start, 'YYYY-MM-DD') AS start, coalesce(sum(f.factor_amount), 0) AS volume, count(f.start)::int AS count
         FROM buckets k LEFT JOIN financed f ON f.start = k.start
        GROUP BY k.start ORDER BY k.start`,
      replacements,
    ),
    exposure('client', replacements),
    exposure('customer', replacements),
    dilutionOf({ kind: 'book' }, { asOf: businessDay(now) }),
  ]);
  const open = toCents(stock!.open);
  const rate = (part: string) => (open === 0 ? null : Math.round((1000 * toCents(part)) / open) / 10);
  return {
    period,
    from: flow!.from,
    to: flow!.to,
    financingVolume: eur(flow!.volume),
    turnover: eur(flow!.turnover),
    feeIncome: eur(flow!.fees),
    financedCount: flow!.financed,
    dso: num(flow!.dso),
    paidCount: flow!.paid,
    openFinanced: centsToNumber(open),
    overdueAmount: eur(stock!.overdue),
    overdueRate: rate(stock!.overdue),
    defaultAmount: eur(stock!.defaulted),
    defaultRate: rate(stock!.defaulted),
    riskDistribution: risk.map((row) => ({ category: row.category, clients: row.clients, exposure: eur(row.exposure) })),
    topClients: clients.top,
    topCustomers: customers.top,
    concentration: { clients: clients.concentration, customers: customers.concentration },
    series: series.map((row) => ({ start: row.start, volume: eur(row.volume), count: row.count })),
    dilution,
  };
}
