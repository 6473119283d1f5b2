import { beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../../db/seed/demo.ts';
import { getSequelize } from '../../db/connection.ts';
import { getRequest, signedInCookie } from '../auth/test-helpers.server.ts';
import { selectRows } from '../db.server.ts';
import { loader as apiLoader } from '../routes/api.analytics.ts';
import { loader as csvLoader } from '../routes/api.analytics.export[.]csv.ts';
import { analyticsFor, type Analytics } from './analytics.server.ts';
import { ANALYTICS_PERIODS, SERIES_BUCKET, type AnalyticsPeriod } from './periods.ts';
import { createTestUser } from '../../tests/factories.ts';

/**
 * Every analytics figure against the same figure computed here, independently:
 * the invoice rows are read with plain SQL and summed, averaged and grouped in
 * JavaScript, in cents.
 */
const now = new Date();
let cookie: string;

interface InvoiceRow {
  id: string;
  client_id: string;
  customer_id: string;
  status: string;
  amount: string;
  factor_amount: string | null;
  factor_fee: string | null;
  paid_amount: string;
  credited_amount: string;
  issue_date: string;
  due_date: string;
  /** Croatian calendar days of the timestamps, YYYY-MM-DD. */
  financed_day: string | null;
  paid_day: string | null;
  financed_at: Date | null;
  paid_at: Date | null;
}
let invoices: InvoiceRow[];
let names: Map<string, string>;

beforeAll(async () => {
  await seedDemo(getSequelize(), { now });
  const user = await createTestUser({ role: 'user' });
  cookie = await signedInCookie(user.id);
  invoices = await selectRows<InvoiceRow>(
    `SELECT id, client_id, customer_id, status, amount, factor_amount, factor_fee, paid_amount, credited_amount,
            to_char(issue_date, 'YYYY-MM-DD') AS issue_date, to_char(due_date, 'YYYY-MM-DD') AS due_date,
            to_char(timezone('Europe/Zagreb', financed_at), 'YYYY-MM-DD') AS financed_day,
            to_char(timezone('Europe/Zagreb', paid_at), 'YYYY-MM-DD') AS paid_day,
            financed_at, paid_at
       FROM invoices`,
  );
  names = new Map(
    (await selectRows<{ id: string; company_name: string }>('SELECT id, company_name FROM clients UNION ALL SELECT id, company_name FROM customers')).map((row) => [
      row.id,
      row.company_name,
    ]),
  );
}, 180_000);

const cents = (value: string | number | null) => Math.round(Number(value ?? 0) * 100);
const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
const DAY = 86_400_000;
/** A YYYY-MM-DD day shifted by `days`. */
const shift = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);
const daysBetween = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY);
const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Zagreb' }).format(now);
const oneDecimal = (numerator: number, denominator: number) => (denominator === 0 ? null : Math.round((1000 * numerator) / denominator) / 10);

/** Monday of the ISO week of a day; the first day of its month. */
const weekStart = (day: string) => shift(day, -((new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7));
const monthStart = (day: string) => `${day.slice(0, 8)}01`;

function expected(period: AnalyticsPeriod) {
  const first = shift(today, -(ANALYTICS_PERIODS[period] - 1));
  const inPeriod = (day: string | null, at: Date | null) => day !== null && day >= first && day <= today && at !== null && at.getTime() <= now.getTime();
  const financed = invoices.filter((row) => inPeriod(row.financed_day, row.financed_at));
  const paid = invoices.filter((row) => inPeriod(row.paid_day, row.paid_at));
  const open = invoices.filter((row) => row.status === 'financed');
  const openCents = sum(open.map((row) => cents(row.factor_amount)));
  const overdue = sum(open.filter((row) => row.due_date < today).map((row) => cents(row.factor_amount)));
  const defaulted = sum(open.filter((row) => row.due_date < shift(today, -90)).map((row) => cents(row.factor_amount)));
  const dsoDays = paid.map((row) => daysBetween(row.issue_date, row.paid_day!));
  return {
    first,
    financed,
    figures: {
      from: first,
      to: today,
      financingVolume: sum(financed.map((row) => cents(row.factor_amount))) / 100,
      turnover: sum(financed.map((row) => cents(row.amount))) / 100,
      feeIncome: sum(financed.map((row) => cents(row.factor_fee))) / 100,
      financedCount: financed.length,
      dso: dsoDays.length === 0 ? null : Math.round((10 * sum(dsoDays)) / dsoDays.length) / 10,
      paidCount: paid.length,
      openFinanced: openCents / 100,
      overdueAmount: overdue / 100,
      overdueRate: oneDecimal(overdue, openCents),
      defaultAmount: defaulted / 100,
      defaultRate: oneDecimal(defaulted, openCents),
    },
  };
}

/** Open exposure per client or customer, largest first (ties by name, id), and its concentration. */
function exposures(kind: 'client_id' | 'customer_id') {
  const per = new Map<string, { cents: number; invoices: number }>();
  for (const row of invoices.filter((invoice) => invoice.status === 'financed')) {
    // What the debtor still owes: credit notes lower it (docs/collections.md#dilution-and-disputes-resolved).
    const open = kind === 'client_id' ? cents(row.factor_amount) : cents(row.amount) - cents(row.paid_amount) - cents(row.credited_amount);
    const entry = per.get(row[kind]) ?? { cents: 0, invoices: 0 };
    per.set(row[kind], { cents: entry.cents + open, invoices: entry.invoices + 1 });
  }
  const total = sum([...per.values()].map((entry) => entry.cents));
  const rows = [...per.entries()]
    .filter(([, entry]) => entry.cents > 0)
    .map(([id, entry]) => ({ id, companyName: names.get(id)!, exposure: entry.cents / 100, invoices: entry.invoices, share: oneDecimal(entry.cents, total)! }))
    .sort((a, b) => b.exposure - a.exposure || (a.companyName < b.companyName ? -1 : a.companyName > b.companyName ? 1 : a.id < b.id ? -1 : 1));
  // HHI exactly, in BigInt: 10 000 × Σ cᵢ² / T², to one decimal, half up.
  const squares = [...per.values()].reduce((acc, entry) => acc + BigInt(entry.cents) ** 2n, 0n);
  const t2 = BigInt(total) ** 2n;
  const hhi = total === 0 ? null : Number((2n * 100_000n * squares + t2) / (2n * t2)) / 10;
  const largest = Math.max(0, ...[...per.values()].map((entry) => entry.cents));
  return { top: rows.slice(0, 10), concentration: { total: total / 100, largestShare: oneDecimal(largest, total), hhi } };
}

describe.each<AnalyticsPeriod>(['30d', '90d', '1y'])('analytics for %s over the demo book', (period) => {
  let data: Analytics;
  beforeAll(async () => {
    data = await analyticsFor({ period, now });
  });

  it('the period figures equal their SQL', () => {
    const { figures, financed } = expected(period);
    expect(financed.length).toBeGreaterThan(0);
    expect(data).toMatchObject({ period, ...figures });
    expect(data.financingVolume).toBeGreaterThan(0);
    expect(data.dso).not.toBeNull();
    expect(data.openFinanced).toBeGreaterThan(0);
    expect(data.overdueRate).not.toBeNull();
  });

  it('the series buckets the financed volume by day, week or month and adds up to it', () => {
    const { first, financed } = expected(period);
    const unit = SERIES_BUCKET[period];
    const bucketOf = (day: string) => {
      const start = unit === 'month' ? monthStart(day) : unit === 'week' ? weekStart(day) : day;
      return start < first ? first : start;
    };
    const perBucket = new Map<string, { cents: number; count: number }>();
    for (let day = first; day <= today; day = shift(day, 1)) perBucket.set(bucketOf(day), { cents: 0, count: 0 });
    for (const row of financed) {
      const entry = perBucket.get(bucketOf(row.financed_day!))!;
      entry.cents += cents(row.factor_amount);
      entry.count += 1;
    }
    expect(data.series).toEqual([...perBucket.entries()].map(([start, entry]) => ({ start, volume: entry.cents / 100, count: entry.count })));
    if (period === '30d') expect(data.series).toHaveLength(30);
    expect(Math.round(sum(data.series.map((point) => Math.round(point.volume * 100))))).toBe(Math.round(data.financingVolume * 100));
  });

  it('risk distribution, top lists and concentration equal their SQL', async () => {
    const clients = await selectRows<{ id: string; risk_category: string | null }>('SELECT id, risk_category FROM clients');
    const clientExposure = exposures('client_id');
    const openPerClient = new Map<string, number>();
    for (const row of invoices.filter((invoice) => invoice.status === 'financed'))
      openPerClient.set(row.client_id, (openPerClient.get(row.client_id) ?? 0) + cents(row.factor_amount));
    expect(data.riskDistribution).toEqual(
      (['low', 'medium', 'high', 'none'] as const).map((category) => {
        const members = clients.filter((client) => (client.risk_category ?? 'none') === category);
        return { category, clients: members.length, exposure: sum(members.map((client) => openPerClient.get(client.id) ?? 0)) / 100 };
      }),
    );
    expect(sum(data.riskDistribution.map((row) => row.clients))).toBe(clients.length);

    const customerExposure = exposures('customer_id');
    expect(data.topClients).toEqual(clientExposure.top);
    expect(data.topCustomers).toEqual(customerExposure.top);
    expect(data.topClients).toHaveLength(10);
    expect(data.concentration).toEqual({ clients: clientExposure.concentration, customers: customerExposure.concentration });
    expect(data.concentration.clients.largestShare).toBe(data.topClients[0].share);
  });

  it("the book's dilution of the last 12 months equals its sum in JavaScript", async () => {
    const figures = await analyticsFor({ period: '30d', now });
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Zagreb' }).format(now);
    const yearAgo = new Date(Date.parse(`${today}T00:00:00Z`));
    yearAgo.setUTCFullYear(yearAgo.getUTCFullYear() - 1);
    const first = new Date(yearAgo.getTime() + 86_400_000).toISOString().slice(0, 10);
    const notes = await selectRows<{ amount: string; issue_date: string }>(`SELECT amount, to_char(issue_date, 'YYYY-MM-DD') AS issue_date FROM credit_notes`);
    const credited = notes.filter((note) => note.issue_date >= first && note.issue_date <= today).reduce((sum, note) => sum + cents(note.amount), 0);
    const financed = invoices.filter((row) => row.financed_day !== null && row.financed_day >= first && row.financed_day <= today).reduce((sum, row) => sum + cents(row.amount), 0);
    // The demo book has credit notes (db/seed/demo/dilution.ts): the rate is not zero.
    expect(credited).toBeGreaterThan(0);
    expect(figures.dilution).toEqual({ from: first, to: today, creditNotes: credited / 100, financed: financed / 100, rate: Math.round((10_000 * credited) / financed) / 100 });
  });

  it('GET /api/analytics answers the same figures; the CSV has them', async () => {
    const response = await apiLoader({ request: getRequest(`/api/analytics?period=${period}`, cookie), params: {}, context: {} });
    expect(response.status).toBe(200);
    const body = (await response.json()) as Analytics;
    const { figures } = expected(period);
    expect(body).toMatchObject({ period, ...figures });

    const csv = await csvLoader({ request: getRequest(`/api/analytics/export.csv?period=${period}`, cookie), params: {}, context: {} });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('Content-Type')).toBe('text/csv; charset=utf-8');
    expect(csv.headers.get('Content-Disposition')).toBe(`attachment; filename="finflow-analytics-${period}-${today}.csv"`);
    const bytes = new Uint8Array(await csv.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes).slice(1);
    const lines = text.trimEnd().split('\r\n');
    expect(lines[0]).toBe('section;item;value;detail');
    const value = (section: string, item: string) => lines.find((line) => line.startsWith(`${section};${item};`))?.split(';')[2];
    const money = (amount: number) => amount.toFixed(2).replace('.', ',');
    expect(value('period', 'period')).toBe(period);
    expect(value('period', 'from')).toBe(figures.from);
    expect(value('figures', 'financingVolume')).toBe(money(figures.financingVolume));
    expect(value('figures', 'turnover')).toBe(money(figures.turnover));
    expect(value('figures', 'feeIncome')).toBe(money(figures.feeIncome));
    expect(value('figures', 'dso')).toBe(figures.dso!.toFixed(1).replace('.', ','));
    expect(value('figures', 'overdueRate')).toBe(figures.overdueRate!.toFixed(1).replace('.', ','));
    expect(value('concentration', 'clients.hhi')).toBe(body.concentration.clients.hhi!.toFixed(1).replace('.', ','));
    const top = body.topClients[0];
    expect(lines.some((line) => line.includes(top.companyName) && line.includes(money(top.exposure)))).toBe(true);
    expect(lines.filter((line) => line.startsWith('series;'))).toHaveLength(body.series.length);
  });
});

describe('the period changes the figures', () => {
  it('7d, 30d, 90d and 1y give growing volumes over their own days', async () => {
    const all = await Promise.all((['7d', '30d', '90d', '1y'] as const).map((period) => analyticsFor({ period, now })));
    expect(all.map((data) => data.series.length)).toEqual([7, 30, all[2].series.length, all[3].series.length]);
    expect(all[2].series.length).toBeGreaterThanOrEqual(13);
    for (let index = 1; index < all.length; index++) {
      expect(all[index].financingVolume).toBeGreaterThan(all[index - 1].financingVolume);
      expect(all[index].from < all[index - 1].from).toBe(true);
    }
    for (const data of all) expect(data).toMatchObject(expected(data.period).figures);
  });

  it('GET /api/analytics refuses an unknown period', async () => {
    const response = await apiLoader({ request: getRequest('/api/analytics?period=2y', cookie), params: {}, context: {} }).catch((error: unknown) => error as Response);
    expect(response.status).toBe(400);
  });
});
