import { execute, inTransaction, isLockNotAvailable, selectOne } from '../db.server.ts';
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

/**
 * What active clients could draw at the start of a month (`firstDay`, its first Croatian day), with their limits and
 * status now: advances outstanding then = used_credit less how much they grew over this month and any later one
 * (client_advance_changes; docs/money.md). Read from every client, it is kept from then on by the database
 * (db/migrations/2026.11.28T11.10.00.client-month-start.ts).
 */
const MONTH_START_FROM_THE_CLIENTS = `
  SELECT coalesce(sum(client_month_start_available(c.status, c.created_at, c.credit_limit, c.used_credit, coalesce(a.changed, 0), CAST(:firstDay AS date))), 0)
    FROM clients c
    LEFT JOIN (SELECT client_id, sum(change) AS changed FROM client_advance_changes WHERE month >= CAST(:firstDay AS date) GROUP BY client_id) a
      ON a.client_id = c.id`;

/**
 * Starts keeping a month's figure: reads it from every client while no writer is half-way (a SHARE lock on both
 * tables, which waits for the writers in flight and holds new ones back until this commits), and keeps the months
 * from the one before it on. Once a month, or when a dashboard asks for another month. False when the writers did not let
 * go within 200 ms (a lock wait must not hold a posting back, nor meet one in a deadlock): the caller reads the
 * figure itself this time.
 */
async function trackMonthStart(firstDay: string): Promise<boolean> {
  try {
    await inTransaction(async (transaction) => {
      const options = { transaction };
      await execute(`SET LOCAL lock_timeout = '200ms'`, {}, options);
      await execute('LOCK TABLE clients, client_advance_changes IN SHARE MODE', {}, options);
      const { count } = await execute(`INSERT INTO client_month_starts (month) VALUES (CAST(:firstDay AS date)) ON CONFLICT DO NOTHING`, { firstDay }, options);
      if (count === 0) return;
      // Rows a fold wrote after the month was last let go are not part of it.
      await execute(`DELETE FROM client_month_start_deltas WHERE month = CAST(:firstDay AS date)`, { firstDay }, options);
      await execute(`INSERT INTO client_month_start_deltas (month, available) SELECT CAST(:firstDay AS date), (${MONTH_START_FROM_THE_CLIENTS})`, { firstDay }, options);
      // Every tracked month costs each posting a little: keep the months from the one before this on, up to today's.
      const others = `month <> CAST(:firstDay AS date) AND (month < CAST(:firstDay AS date) - interval '1 month'
                      OR month > CAST(date_trunc('month', now() AT TIME ZONE :tz) AS date))`;
      await execute(`DELETE FROM client_month_starts WHERE ${others}`, { firstDay, tz: DASHBOARD_TIME_ZONE }, options);
      await execute(`DELETE FROM client_month_start_deltas WHERE ${others}`, { firstDay, tz: DASHBOARD_TIME_ZONE }, options);
    });
    return true;
  } catch (error) {
    if (isLockNotAvailable(error)) return false;
    throw error;
  }
}

/** The figure for the month whose first Croatian day is `firstDay` (YYYY-MM-DD), as an exact decimal. */
export async function monthStartAvailable(firstDay: string): Promise<string> {
  const kept = () =>
    selectOne<{ tracked: boolean; available: string }>(
      `SELECT EXISTS (SELECT 1 FROM client_month_starts WHERE month = CAST(:firstDay AS date)) AS tracked,
              (SELECT coalesce(sum(available), 0) FROM client_month_start_deltas WHERE month = CAST(:firstDay AS date)) AS available`,
      { firstDay },
    );
  const first = (await kept())!;
  if (first.tracked) return first.available;
  if (await trackMonthStart(firstDay)) {
    const now = (await kept())!;
    if (now.tracked) return now.available;
  }
  return (await selectOne<{ available: string }>(`SELECT (${MONTH_START_FROM_THE_CLIENTS}) AS available`, { firstDay }))!.available;
}

/** The cards and their sub-notes: clients, invoices and workflow instances, one query each. */
async function cardFigures(now: Date) {
  // The month's first Croatian day as a value the planner sees, so the month rows are found by range on their index.
  const bounds = (await selectOne<{ first_day: string; last_month_first_day: string }>(
    `SELECT to_char(date_trunc('month', CAST(:now AS timestamptz) AT TIME ZONE :tz), 'YYYY-MM-DD') AS first_day,
            to_char(date_trunc('month', CAST(:now AS timestamptz) AT TIME ZONE :tz) - interval '1 month', 'YYYY-MM-DD') AS last_month_first_day`,
    { now: now.toISOString(), tz: DASHBOARD_TIME_ZONE },
  ))!;
  const [clients, availableBefore, invoices, workflows] = await Promise.all([
    selectOne<{ available: string; active: number; new_active: number; low: number; medium: number; high: number }>(
      // The totals the database keeps per month a client was created in
      // (db/migrations/2026.11.28T11.00.00.client-book-totals.ts).
      `SELECT coalesce(sum(t.available), 0) AS available,
              coalesce(sum(t.active), 0)::int AS active,
              coalesce(sum(t.active) FILTER (WHERE t.created_month >= CAST(:firstDay AS date)), 0)::int AS new_active,
              coalesce(sum(t.low), 0)::int AS low, coalesce(sum(t.medium), 0)::int AS medium, coalesce(sum(t.high), 0)::int AS high
         FROM client_book_deltas t`,
      { firstDay: bounds.first_day },
    ),
    monthStartAvailable(bounds.first_day),
    invoiceStatusTotals(),
    selectOne<{ success: string | null; this_month: string | null; last_month: string | null }>(
      // The totals the database keeps: per status over all time (db/migrations/2026.11.29T08.00.00.workflow-and-task-totals.ts)
      // and per Croatian month an instance finished in (db/migrations/2026.11.29T11.00.00.workflow-finish-months.ts).
      `WITH totals AS (
              SELECT sum(instances) FILTER (WHERE status = 'completed') AS completed, sum(instances) FILTER (WHERE status IN ('completed', 'failed')) AS finished
                FROM workflow_instance_deltas),
            months AS (
              SELECT sum(completed) FILTER (WHERE month >= CAST(:firstDay AS date)) AS this_completed,
                     sum(completed + failed) FILTER (WHERE month >= CAST(:firstDay AS date)) AS this_finished,
                     sum(completed) FILTER (WHERE month < CAST(:firstDay AS date)) AS last_completed,
                     sum(completed + failed) FILTER (WHERE month < CAST(:firstDay AS date)) AS last_finished
                FROM workflow_finish_month_deltas WHERE month >= CAST(:lastMonthFirstDay AS date))
       SELECT round(100.0 * totals.completed / nullif(totals.finished, 0), 1) AS success,
              round(100.0 * months.this_completed / nullif(months.this_finished, 0), 1) AS this_month,
              round(100.0 * months.last_completed / nullif(months.last_finished, 0), 1) AS last_month
         FROM totals CROSS JOIN months`,
      { firstDay: bounds.first_day, lastMonthFirstDay: bounds.last_month_first_day },
    ),
  ]);
  return { clients: { ...clients!, available_before: availableBefore }, invoices: invoices!, workflows: workflows! };
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

/** Folds the client totals' and month starts' deltas into one row per month (the hourly housekeeping), so the sums stay short. */
export async function compactClientBookTotals(): Promise<void> {
  await execute('SELECT compact_client_book_totals()');
  await execute('SELECT compact_client_month_starts()');
}
