import { beforeAll, describe, expect, it } from 'vitest';
import { apiFailure, getRequest, signedInCookie } from '../auth/test-helpers.server.ts';
import { selectRows } from '../db.server.ts';
import { readXlsx } from '../exports/test-helpers.server.ts';
import { XLSX_NUMBER_FORMATS } from '../exports/xlsx.server.ts';
import { financeInvoice } from '../invoices/financing.server.ts';
import { approveInvoice, verifyInvoice } from '../invoices/invoice-decisions.server.ts';
import { recordPayment } from '../payments/payment-recording.server.ts';
import { confirmPayment, refundPayment } from '../payments/payment-transitions.server.ts';
import { loader as reportLoader } from '../routes/api.analytics.ageing.ts';
import { loader as csvLoader } from '../routes/api.analytics.ageing.export[.]csv.ts';
import { loader as xlsxLoader } from '../routes/api.analytics.ageing.export[.]xlsx.ts';
import { loader as invoicesLoader } from '../routes/api.analytics.ageing.invoices.ts';
import { LANGUAGE_KEY } from '../i18n.ts';
import { toCents } from '../utils/money.ts';
import { analyticsFor } from './analytics.server.ts';
import { ageingInvoices, ageingPage, ageingReport, type AgeingReport } from './ageing.server.ts';
import { AGEING_BUCKETS } from './ageing.ts';
import { book, createTestUser, financeableClient, insertCustomer, newInvoice, zagrebDay, type Book, type Party } from '../../tests/factories.ts';
import { atBusinessDay } from '../../tests/support/business-day.ts';
import { cellsOf, emptyCells, independentCells, reportCells, sumCells } from '../../tests/support/ageing-cells.ts';

/**
 * The ageing report (docs/collections.md#ageing) over a book built here
 * through the real financing and payment modules, each on its own business
 * day: invoices in every bucket and on every bucket's edge, part-payments
 * before and after the as-of day, one settled before it and one after, one
 * financed after it, a refund after it, one never financed. The as-of day D
 * is ten days ago. Every figure is checked against the hand-computed book
 * below and against an independent SQL computation that reads the ledger
 * alone (sums of entries up to the day, buckets by width_bucket), unlike
 * the implementation's roll-back from today's book.
 */

const D = zagrebDay(-10);
/** A day relative to D. */
const day = (offset: number) => zagrebDay(offset - 10);

interface Spec {
  key: string;
  client: 'A' | 'B';
  customer: 'X' | 'Y' | 'Z';
  amount: string;
  financedOn: number | null;
  dueOn: number;
  payments?: Array<{ on: number; amount: string; refundOn?: number }>;
}

const SPECS: Spec[] = [
  {
    key: 'notDue-part',
    client: 'A',
    customer: 'X',
    amount: '1000.00',
    financedOn: -5,
    dueOn: 20,
    payments: [
      { on: -2, amount: '100.00' },
      { on: 3, amount: '200.00' },
    ],
  },
  { key: 'due-on-day', client: 'A', customer: 'Y', amount: '2500.50', financedOn: -30, dueOn: 0 },
  { key: 'dpd1', client: 'B', customer: 'X', amount: '333.33', financedOn: -40, dueOn: -1 },
  { key: 'dpd30', client: 'B', customer: 'Y', amount: '1200.00', financedOn: -60, dueOn: -30 },
  { key: 'dpd31', client: 'A', customer: 'X', amount: '780.10', financedOn: -70, dueOn: -31, payments: [{ on: -40, amount: '80.10' }] },
  {
    key: 'dpd61',
    client: 'B',
    customer: 'X',
    amount: '4000.00',
    financedOn: -100,
    dueOn: -61,
    payments: [
      { on: -70, amount: '1000.00' },
      { on: 1, amount: '500.00' },
    ],
  },
  { key: 'dpd90', client: 'A', customer: 'Y', amount: '150.00', financedOn: -120, dueOn: -90 },
  { key: 'dpd91', client: 'B', customer: 'Z', amount: '999.99', financedOn: -130, dueOn: -91 },
  { key: 'dpd200', client: 'A', customer: 'Z', amount: '5000.00', financedOn: -240, dueOn: -200, payments: [{ on: -150, amount: '1234.56' }] },
  { key: 'paid-before', client: 'A', customer: 'X', amount: '600.00', financedOn: -50, dueOn: -20, payments: [{ on: -15, amount: '600.00' }] },
  {
    key: 'paid-after',
    client: 'B',
    customer: 'Y',
    amount: '800.00',
    financedOn: -35,
    dueOn: -5,
    payments: [
      { on: -4, amount: '300.00' },
      { on: 2, amount: '500.00' },
    ],
  },
  { key: 'financed-after', client: 'A', customer: 'X', amount: '700.00', financedOn: 1, dueOn: 30 },
  { key: 'refund-after', client: 'B', customer: 'X', amount: '450.00', financedOn: -20, dueOn: 10, payments: [{ on: -3, amount: '300.00', refundOn: 1 }] },
  { key: 'never-financed', client: 'A', customer: 'X', amount: '999.00', financedOn: null, dueOn: 15 },
];

let b: Book;
let cookie: string;
const clients: Record<string, Party> = {};
const customers: Record<string, Party> = {};
const invoiceIds: Record<string, string> = {};

async function buildBook() {
  b = await book();
  clients.A = await financeableClient({ name: 'Ageing A d.o.o.' });
  clients.B = await financeableClient({ name: 'Ageing B d.o.o.' });
  for (const key of ['X', 'Y', 'Z']) customers[key] = await insertCustomer({ name: `Dužnik ${key} d.d.` });
  // Every money step on its own business day, in the order of the days (a refund after its payment).
  const steps: Array<{ on: number; run: (transaction: Parameters<Parameters<typeof atBusinessDay>[1]>[0]) => Promise<unknown> }> = [];
  for (const spec of SPECS) {
    const issue = spec.financedOn === null ? spec.dueOn - 30 : spec.financedOn - 5;
    const invoice = await newInvoice(b.user, clients[spec.client].id, customers[spec.customer].id, { amount: spec.amount, issueDate: day(issue), dueDate: day(spec.dueOn) });
    invoiceIds[spec.key] = invoice.id;
    if (spec.financedOn === null) continue;
    await verifyInvoice({ actor: b.manager, id: invoice.id });
    await approveInvoice({ actor: b.manager2, id: invoice.id });
    steps.push({ on: spec.financedOn, run: (transaction) => financeInvoice({ actor: b.manager, id: invoice.id }, { transaction }) });
    for (const payment of spec.payments ?? []) {
      let paymentId = '';
      steps.push({
        on: payment.on,
        run: async (transaction) => {
          paymentId = (await recordPayment({ actor: b.user, input: { invoiceId: invoice.id, amount: payment.amount, reference: `HR00 ${spec.key}` } }, { transaction })).id;
          return confirmPayment({ actor: b.manager, id: paymentId }, { transaction });
        },
      });
      if (payment.refundOn !== undefined) steps.push({ on: payment.refundOn, run: (transaction) => refundPayment({ actor: b.manager, id: paymentId }, { transaction }) });
    }
  }
  steps.sort((left, right) => left.on - right.on);
  for (const step of steps) await atBusinessDay(day(step.on), step.run);
}

beforeAll(async () => {
  await buildBook();
  cookie = await signedInCookie((await createTestUser({ role: 'user' })).id);
}, 180_000);

describe('the report on a fixed past day', () => {
  it('holds, per client, exactly the open amounts of the hand-computed book, largest total first', async () => {
    const report = await ageingReport({ asOf: D, by: 'client' });
    expect(report.asOf).toBe(D);
    expect(report.count).toBe(2);
    expect(report.rows.map((row) => row.name)).toEqual(['Ageing A d.o.o.', 'Ageing B d.o.o.']);
    // A: 900.00 (1000 − 100 paid before; 200 after does not count) and 2500.50 due on the day: not due; 780.10 − 80.10 at 31 days;
    // 150.00 at 90 days; 5000.00 − 1234.56 at 200 days. Settled before, financed after and never financed: not in it.
    expect(cellsOf(report.rows[0])).toEqual({ notDue: 340050, days1to30: 0, days31to60: 70000, days61to90: 15000, over90: 376544, total: 801594, invoices: 5 });
    // B: 333.33 at 1 day, 1200.00 at 30, 800.00 − 300.00 settled only after the day at 5; 4000 − 1000 (500 came after) at 61;
    // 999.99 at 91; 450.00 − 300.00 refunded only after the day, not due.
    expect(cellsOf(report.rows[1])).toEqual({ notDue: 15000, days1to30: 203333, days31to60: 0, days61to90: 300000, over90: 99999, total: 618332, invoices: 6 });
    expect(cellsOf(report.totals)).toEqual({ notDue: 355050, days1to30: 203333, days31to60: 70000, days61to90: 315000, over90: 476543, total: 1419926, invoices: 11 });
  });

  it('by customer: the same open items per debtor, ordered by total', async () => {
    const report = await ageingReport({ asOf: D, by: 'customer' });
    expect(report.rows.map((row) => [row.name, Math.round(row.total * 100), row.invoices])).toEqual([
      ['Dužnik X d.d.', 508333, 5],
      ['Dužnik Z d.d.', 476543, 2],
      ['Dužnik Y d.d.', 435050, 4],
    ]);
    expect(report.rows[0].oib).toBe(customers.X.oib);
    expect(cellsOf(report.totals)).toEqual(cellsOf((await ageingReport({ asOf: D, by: 'client' })).totals));
  });

  // Days around every booking of the book, before anything, and today.
  const days = [-300, -240, -131, -130, -100, -71, -70, -41, -40, -16, -15, -5, -3, -2, -1, 0, 1, 2, 3, 10];
  it.each(['client', 'customer'] as const)('equals the independent SQL on every day around the bookings, by %s', async (by) => {
    for (const offset of days) {
      const asOf = day(offset);
      const report = await ageingReport({ asOf, by, limit: 1000 });
      const expected = await independentCells(asOf, by);
      expect(reportCells(report), `${by} on ${asOf}`).toEqual(expected);
      expect(report.count, `${by} on ${asOf}`).toBe(expected.size);
      expect(cellsOf(report.totals), `${by} totals on ${asOf}`).toEqual(sumCells(expected));
    }
  });

  it('is empty before the first financing', async () => {
    const report = await ageingReport({ asOf: day(-300), by: 'client' });
    expect(report).toEqual({ asOf: day(-300), by: 'client', count: 0, totals: { ...emptyCells() }, rows: [] });
  });
});

describe('today', () => {
  it('totals equal the open book: Σ amount − paid of the financed invoices, the analytics open exposure on customers', async () => {
    const report = await ageingReport({});
    expect(report.asOf).toBe(zagrebDay(0));
    const [open] = await selectRows<{ open: string; invoices: number }>(
      `SELECT sum(amount - paid_amount) AS open, count(*)::int AS invoices FROM invoices WHERE status = 'financed'`,
    );
    expect(Math.round(report.totals.total * 100)).toBe(toCents(open.open));
    expect(report.totals.invoices).toBe(open.invoices);
    const analytics = await analyticsFor({ period: '30d' });
    expect(report.totals.total).toBe(analytics.concentration.customers.total);
    // By hand: every financed invoice's amount less what was paid on it by now; the settled two are gone, the refunded one is whole again.
    const byHand = [
      'notDue-part:700.00',
      'due-on-day:2500.50',
      'dpd1:333.33',
      'dpd30:1200.00',
      'dpd31:700.00',
      'dpd61:2500.00',
      'dpd90:150.00',
      'dpd91:999.99',
      'dpd200:3765.44',
      'financed-after:700.00',
      'refund-after:450.00',
    ];
    expect(Math.round(report.totals.total * 100)).toBe(byHand.reduce((sum, item) => sum + toCents(item.split(':')[1]), 0));
    expect(reportCells(report)).toEqual(await independentCells(zagrebDay(0), 'client'));
  });
});

describe('the drill-down', () => {
  it('lists the invoices of one row and bucket, and its count and open sum equal the report cell, for every cell', async () => {
    for (const by of ['client', 'customer'] as const) {
      const report = await ageingReport({ asOf: D, by });
      for (const row of report.rows) {
        for (const bucket of [...AGEING_BUCKETS, undefined]) {
          const drill = await ageingInvoices({ asOf: D, by, partyId: row.id, bucket, limit: 1000 });
          expect(drill.openTotal, `${row.name} ${bucket}`).toBe(bucket ? row[bucket] : row.total);
          expect(drill.items.reduce((sum, item) => sum + Math.round(item.openAmount * 100), 0)).toBe(Math.round(drill.openTotal * 100));
          if (!bucket) expect(drill.total).toBe(row.invoices);
          for (const item of drill.items) {
            if (bucket) expect(item.bucket).toBe(bucket);
            expect(by === 'client' ? item.clientId : item.customerId).toBe(row.id);
          }
        }
      }
    }
  });

  it("orders a row's invoices by days past due, pages them, and gives each its open amount on the day", async () => {
    const all = await ageingInvoices({ asOf: D, by: 'client', partyId: clients.A.id });
    expect(all.party).toEqual({ id: clients.A.id, name: 'Ageing A d.o.o.' });
    expect(all.total).toBe(5);
    expect(all.items.map((item) => [item.id, item.daysPastDue, item.bucket, item.openAmount])).toEqual([
      [invoiceIds.dpd200, 200, 'over90', 3765.44],
      [invoiceIds.dpd90, 90, 'days61to90', 150],
      [invoiceIds.dpd31, 31, 'days31to60', 700],
      [invoiceIds['due-on-day'], 0, 'notDue', 2500.5],
      [invoiceIds['notDue-part'], -20, 'notDue', 900],
    ]);
    expect(all.items[0]).toMatchObject({ clientName: 'Ageing A d.o.o.', customerId: customers.Z.id, customerName: 'Dužnik Z d.d.', dueDate: day(-200), amount: 5000 });
    const page = await ageingInvoices({ asOf: D, by: 'client', partyId: clients.A.id, limit: 2, offset: 2 });
    expect(page.total).toBe(5);
    expect(page.items.map((item) => item.id)).toEqual([invoiceIds.dpd31, invoiceIds['due-on-day']]);
    const notDue = await ageingInvoices({ asOf: D, by: 'customer', partyId: customers.X.id, bucket: 'notDue' });
    expect(notDue.items.map((item) => [item.id, item.openAmount])).toEqual([
      [invoiceIds['refund-after'], 150],
      [invoiceIds['notDue-part'], 900],
    ]);
  });
});

describe('GET /api/analytics/ageing and its drill-down', () => {
  const get = (path: string) => reportLoader({ request: getRequest(path, cookie), params: {}, context: {} });
  const getInvoices = (path: string) => invoicesLoader({ request: getRequest(path, cookie), params: {}, context: {} });

  it('answers a page of rows with the whole report in X-Total-Count and totals', async () => {
    const response = await get(`/api/analytics/ageing?asOf=${D}&by=customer&limit=2&offset=1`);
    expect(response.status).toBe(200);
    expect(response.headers.get('X-Total-Count')).toBe('3');
    const body = (await response.json()) as AgeingReport;
    expect(body.rows.map((row) => row.id)).toEqual([customers.Z.id, customers.Y.id]);
    expect(body.rows[0]).toEqual({
      id: customers.Z.id,
      name: 'Dužnik Z d.d.',
      oib: customers.Z.oib,
      notDue: 0,
      days1to30: 0,
      days31to60: 0,
      days61to90: 0,
      over90: 4765.43,
      total: 4765.43,
      invoices: 2,
    });
    expect(body.totals.total).toBe(14199.26);
    expect(body.count).toBe(3);
  });

  it('defaults to today by client', async () => {
    const body = (await (await get('/api/analytics/ageing')).json()) as AgeingReport;
    expect(body).toMatchObject({ asOf: zagrebDay(0), by: 'client' });
  });

  it.each([
    ['asOf=2026-02-30', 'analytics.ageing.errors.asOfInvalid', 'asOf'],
    ['asOf=yesterday', 'analytics.ageing.errors.asOfInvalid', 'asOf'],
    [`asOf=${zagrebDay(1)}`, 'analytics.ageing.errors.asOfFuture', 'asOf'],
    ['by=seller', 'analytics.ageing.errors.byInvalid', 'by'],
  ])('refuses ?%s with 400', async (query, code, field) => {
    const failure = await apiFailure(get(`/api/analytics/ageing?${query}`));
    expect(failure.status).toBe(400);
    expect(failure.body).toMatchObject({ code, errors: { [field]: expect.any(Array) } });
  });

  it('lists the drill-down with X-Total-Count, and refuses a bad bucket or party', async () => {
    const response = await getInvoices(`/api/analytics/ageing/invoices?asOf=${D}&by=client&partyId=${clients.B.id}&bucket=days1to30`);
    expect(response.headers.get('X-Total-Count')).toBe('3');
    const items = (await response.json()) as Array<{ id: string; openAmount: number; daysPastDue: number }>;
    expect(items.map((item) => [item.id, item.daysPastDue, item.openAmount])).toEqual([
      [invoiceIds.dpd30, 30, 1200],
      [invoiceIds['paid-after'], 5, 500],
      [invoiceIds.dpd1, 1, 333.33],
    ]);
    expect((await apiFailure(getInvoices(`/api/analytics/ageing/invoices?by=client&partyId=${clients.B.id}&bucket=days0to30`))).body).toMatchObject({
      code: 'analytics.ageing.errors.bucketInvalid',
    });
    expect((await apiFailure(getInvoices('/api/analytics/ageing/invoices?by=client&partyId=nobody'))).status).toBe(400);
    expect((await apiFailure(getInvoices('/api/analytics/ageing/invoices?by=client'))).body).toMatchObject({ code: 'analytics.ageing.errors.partyInvalid' });
    // A customer's id is no client.
    const unknown = await apiFailure(getInvoices(`/api/analytics/ageing/invoices?by=client&partyId=${customers.X.id}`));
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 'analytics.ageing.errors.partyNotFound' });
  });
});

describe('the exports', () => {
  it('CSV: every row with the buckets as columns and the totals, to the cent with a decimal comma', async () => {
    const response = await csvLoader({ request: getRequest(`/api/analytics/ageing/export.csv?asOf=${D}&by=client`, cookie), params: {}, context: {} });
    expect(response.headers.get('Content-Disposition')).toBe(`attachment; filename="finflow-ageing-client-${D}.csv"`);
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes).slice(1).split('\r\n')).toEqual([
      'asOf;by;id;name;oib;notDue;days1to30;days31to60;days61to90;over90;total;invoices',
      `${D};client;${clients.A.id};Ageing A d.o.o.;${clients.A.oib};3400,50;0,00;700,00;150,00;3765,44;8015,94;5`,
      `${D};client;${clients.B.id};Ageing B d.o.o.;${clients.B.oib};150,00;2033,33;0,00;3000,00;999,99;6183,32;6`,
      `${D};client;;total;;3550,50;2033,33;700,00;3150,00;4765,43;14199,26;11`,
      '',
    ]);
    expect((await apiFailure(csvLoader({ request: getRequest('/api/analytics/ageing/export.csv?by=x', cookie), params: {}, context: {} }))).status).toBe(400);
  });

  it('XLSX: numeric EUR cells per bucket, labelled in the reader language', async () => {
    const response = await xlsxLoader({
      request: getRequest(`/api/analytics/ageing/export.xlsx?asOf=${D}&by=customer`, `${cookie}; ${LANGUAGE_KEY}=hr`),
      params: {},
      context: {},
    });
    const [sheet] = readXlsx(new Uint8Array(await response.arrayBuffer())).sheets;
    expect(sheet.name).toBe('Starosna struktura potraživanja');
    const cell = (ref: string) => sheet.cells.get(ref);
    expect(cell('A5')?.value).toBe('Kupac');
    expect(cell('G5')?.value).toBe('Više od 90 dana');
    expect(cell('A6')?.value).toBe('Dužnik X d.d.');
    // X: not due 900.00 + 150.00, 1–30 333.33, 31–60 700.00, 61–90 3000.00.
    expect(['C6', 'D6', 'E6', 'F6', 'G6', 'H6', 'I6'].map((ref) => cell(ref)?.value)).toEqual([1050, 333.33, 700, 3000, 0, 5083.33, 5]);
    expect(cell('C6')?.format).toBe(XLSX_NUMBER_FORMATS.eur);
    expect(cell('A9')?.value).toBe('Ukupno');
    expect(cell('H9')).toMatchObject({ value: 14199.26, format: XLSX_NUMBER_FORMATS.eur });
  });
});

describe('the /analytics ageing tab', () => {
  it('reads its URL forgivingly but shows a bad day as a refusal with no figures', async () => {
    const url = (query: string) => new URL(`http://localhost/analytics?tab=ageing&${query}`);
    const data = await ageingPage(url(`asOf=${D}&by=nobody&party=${clients.A.id}&bucket=over90&page=x`));
    expect(data).toMatchObject({ by: 'client', bucket: 'over90', page: 1, error: null });
    expect(data.report?.count).toBe(2);
    expect(data.drill?.items.map((item) => item.id)).toEqual([invoiceIds.dpd200]);
    const future = await ageingPage(url(`asOf=${zagrebDay(3)}`));
    expect(future.report).toBeNull();
    expect(future.error).toContain('analytics.ageing.errors.asOfFuture');
  });
});
