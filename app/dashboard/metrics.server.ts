import { execute, selectOne } from '../db.server.ts';
import { invoiceDayTotals, invoiceStatusTotals } from '../invoices/summaries.server.ts';
import { centsToNumber, toCents } from '../utils/money.ts';
import { addDays, BUSINESS_TIME_ZONE, businessDay } from '../utils/business-time.ts';

/**
 * GET /api/dashboard/metrics (docs/domain-model.md Dashboard metrics) and the dashboard's
 * four cards: every figure is a count or a sum in SQL (docs/api.md). Months and
 * days are Croatian calendar months and days (Europe/Zagreb).
 */
export const DASHBOARD_TIME_ZONE = BUSINESS_TIME_ZONE;
/** Days of invoice history the API returns; the chart shows the last 7, 30 or 90 of them. */
export const HISTORY_DAYS = 90;

export interface HistoricalPoint {
  /** The Croatian calendar day, YYYY-MM-DD. */
  date: string;
  /** Invoices created (received) that day. */
  received: number;
  /** Invoices verified that day. */
  processed: number;
  /** Invoices approved that day. */
  approved: number;
}

export interface DashboardNotes {
  /** Percent change of availableForFinancing against the end of the previous month (with today's limits), one decimal; null when that was 0. */
  availableForFinancingChange: number | null;
  /** Active clients created this month. */
  newActiveClientsThisMonth: number;
  /** Invoices waiting for verification (status pending). */
  awaitingVerification: number;
  /** Success rate of instances finished this month minus that of the previous month, percentage points, one decimal; null when either month finished none. */
  automationSuccessChange: number | null;
}

export interface DashboardMetrics {
  availableForFinancing: number;
  activeClients: number;
  invoicesInProcess: number;
  automationSuccess: number;
  invoiceStats: { received: number; processing: number; approved: number; rejected: number };
  historicalData: HistoricalPoint[];
  riskStats: { low: number; medium: number; high: number };
  notes: DashboardNotes;
}

const num = (value: string | number | null | undefined) => (value === null || value === undefined ? null : Number(value));

/** The first instant of `now`'s Croatian month, and of the month before. */
const MONTH_STARTS = `
  (date_trunc('month', CAST(:now AS timestamptz) AT TIME ZONE :tz) AT TIME ZONE :tz) AS this_month,
  ((date_trunc('month', CAST(:now AS timestamptz) AT TIME ZONE :tz) - interval '1 month') AT TIME ZONE :tz) AS last_month`;

/** The cards and their sub-notes: clients, invoices and workflow instances, one query each. */
async function cardFigures(now: Date) {
  // The month start as a value the planner sees, so this month's rows are found by range on the right index.
  const bounds = (await selectOne<{ this_month: Date }>(`SELECT ${MONTH_STARTS}`, { now: now.toISOString(), tz: DASHBOARD_TIME_ZONE }))!;
  const replacements = { now: now.toISOString(), tz: DASHBOARD_TIME_ZONE, thisMonth: new Date(bounds.this_month).toISOString() };
  const [clients, invoices, workflows] = await Promise.all([
    selectOne<{ available: string; available_before: string; active: number; new_active: number; low: number; medium: number; high: number }>(
      `WITH month_day AS (SELECT (CAST(:thisMonth AS timestamptz) AT TIME ZONE :tz)::date AS first),
            -- The totals the database keeps per month a client was created in
            -- (db/migrations/2026.11.28T11.00.00.client-book-totals.ts).
            totals AS (
              SELECT coalesce(sum(t.available), 0) AS available,
                     coalesce(sum(t.available) FILTER (WHERE t.created_month < d.first), 0) AS available_before_changes,
                     coalesce(sum(t.active), 0)::int AS active,
                     coalesce(sum(t.active) FILTER (WHERE t.created_month >= d.first), 0)::int AS new_active,
                     coalesce(sum(t.low), 0)::int AS low, coalesce(sum(t.medium), 0)::int AS medium, coalesce(sum(t.high), 0)::int AS high
                FROM client_book_deltas t, month_day d),
            -- Advances open at the start of this month = open now (usedCredit, the ledger's outstanding advances,
            -- docs/money.md#the-clients-account) less what they changed by this month and after: the maintained
            -- changes per client and month (db/migrations/2026.11.28T03.00.00.client-advance-changes.ts). Only the
            -- clients with such changes draw differently then than now.
            advances_before AS (
              SELECT a.client_id, -sum(a.change) AS change
                FROM client_advance_changes a, month_day d WHERE a.month >= d.first GROUP BY a.client_id),
            correction AS (
              SELECT coalesce(sum(greatest(coalesce(c.credit_limit, 0) - (c.used_credit + a.change), 0)
                                  - greatest(coalesce(c.credit_limit, 0) - c.used_credit, 0)), 0) AS change
                FROM advances_before a JOIN clients c ON c.id = a.client_id
               WHERE c.status = 'active' AND c.created_at < CAST(:thisMonth AS timestamptz))
       SELECT t.available, t.available_before_changes + k.change AS available_before, t.active, t.new_active, t.low, t.medium, t.high
         FROM totals t, correction k`,
      replacements,
    ),
    invoiceStatusTotals(),
    selectOne<{ success: string | null; this_month: string | null; last_month: string | null }>(
      `WITH bounds AS (SELECT ${MONTH_STARTS}),
            finished AS (
              SELECT w.status, coalesce(w.completed_at, w.updated_at) AS finished_at
                FROM workflow_instances w WHERE w.status IN ('completed', 'failed'))
       SELECT round(100.0 * count(*) FILTER (WHERE f.status = 'completed') / nullif(count(*), 0), 1) AS success,
              round(100.0 * count(*) FILTER (WHERE f.status = 'completed' AND f.finished_at >= b.this_month)
                / nullif(count(*) FILTER (WHERE f.finished_at >= b.this_month), 0), 1) AS this_month,
              round(100.0 * count(*) FILTER (WHERE f.status = 'completed' AND f.finished_at >= b.last_month AND f.finished_at < b.this_month)
                / nullif(count(*) FILTER (WHERE f.finished_at >= b.last_month AND f.finished_at < b.this_month), 0), 1) AS last_month
         FROM finished f CROSS JOIN bounds b`,
      replacements,
    ),
  ]);
  return { clients: clients!, invoices: invoices!, workflows: workflows! };
}

/** Per Croatian day, the last `days` days up to `now`: invoices created, verified and approved (the maintained day totals). */
export async function invoiceHistory({ now, days = HISTORY_DAYS }: { now: Date; days?: number }): Promise<HistoricalPoint[]> {
  // The shared formatter: building an Intl.DateTimeFormat per request was a measurable share of this endpoint's CPU.
  const today = businessDay(now);
  return invoiceDayTotals(addDays(today, -(days - 1)), today);
}

export async function dashboardMetrics({ now = new Date() }: { now?: Date } = {}): Promise<DashboardMetrics> {
  const [{ clients, invoices, workflows }, historicalData] = await Promise.all([cardFigures(now), invoiceHistory({ now })]);
  const available = toCents(clients.available);
  const availableBefore = toCents(clients.available_before);
  const thisMonth = num(workflows.this_month);
  const inProcess = invoices.pending + invoices.verified + invoices.approved;
  const lastMonth = num(workflows.last_month);
  return {
    availableForFinancing: centsToNumber(available),
    activeClients: clients.active,
    invoicesInProcess: inProcess,
    automationSuccess: num(workflows.success) ?? 0,
    invoiceStats: { received: invoices.all, processing: inProcess, approved: invoices.everApproved, rejected: invoices.rejected },
    historicalData,
    riskStats: { low: clients.low, medium: clients.medium, high: clients.high },
    notes: {
      availableForFinancingChange: availableBefore === 0 ? null : Math.round((1000 * (available - availableBefore)) / availableBefore) / 10,
      newActiveClientsThisMonth: clients.new_active,
      awaitingVerification: invoices.pending,
      automationSuccessChange: thisMonth === null || lastMonth === null ? null : Math.round(10 * (thisMonth - lastMonth)) / 10,
    },
  };
}

/** Folds the client totals' deltas into one row per month (the hourly housekeeping), so the sums stay short. */
export async function compactClientBookTotals(): Promise<void> {
  await execute('SELECT compact_client_book_totals()');
}
