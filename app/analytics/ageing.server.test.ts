import { beforeAll, describe, expect, it } from 'vitest';
import { apiFailure, getRequest, signedInCookie } from '../auth/test-helpers.server.ts';
import { selectRows } from '../db.server.ts';
import { readXlsx } from '../exports/test-helpers.server.ts';
import { XLSX_NUMBER_FORMATS } from '../exports/xlsx.server.ts';
import { financeInvoice } from '../invoices/financing.server.ts';
import { approveInvoice, verifyInvoice } from '../invoices/invoice-decisions.server.ts';
import { recordPayment } from '../payments/payment-recording.server.ts';
import { confirmPayment } from '../payments/payment-transitions.server.ts';
import { addCreditNote } from '../dilution/credit-notes.server.ts';
import { chargeBackInvoice } from '../recourse/recourse.server.ts';
import { approveWriteOff, requestWriteOff } from '../recourse/write-off.server.ts';
import { loader as reportLoader } from '../routes/api.analytics.ageing.ts';
import { loader as csvLoader } from '../routes/api.analytics.ageing.export[.]csv.ts';
import { loader as xlsxLoader } from '../routes/api.analytics.ageing.export[.]xlsx.ts';
import { loader as invoicesLoader } from '../routes/api.analytics.ageing.invoices.ts';
import { LANGUAGE_KEY } from '../i18n.ts';
import { toCents } from '../utils/money.ts';
import { analyticsFor } from './analytics.server.ts';
import { ageingInvoices, ageingPage, ageingReport, compactOpenBook, type AgeingReport } from './ageing.server.ts';
import { AGEING_BUCKETS, type AgeingBy } from './ageing.ts';
import { book, createTestUser, financeableClient, insertCustomer, newInvoice, staff, zagrebDay, type Book, type Party } from '../../tests/factories.ts';
import { bookInvoiceSteps, runBookSteps, type BookStep } from '../../tests/support/ageing-book.ts';
import { cellsOf, emptyCells, expectOpenBookRecomputed, independentCells, reportCells, sumCells } from '../../tests/support/ageing-cells.ts';

/**
 * The ageing report (docs/collections.md#ageing) over a book built here
 * through the real financing, payment, credit-note, chargeback and write-off
 * modules, each on its own business day: invoices in every bucket and on
 * every bucket's edge, part-payments before and after the as-of day, one
 * settled before it and one after, one financed after it, a refund after it,
 * one never financed; credit notes issued before and after the day (one
 * entered after the day but dated before it, one settling its invoice, one
 * charging an excess advance back), recourse chargebacks before and after
 * the day (one whose advance was already repaid, so its chargeback books no
 * ledger entry, and the debtor pays after it), write-offs before and after
 * it. The as-of day D is ten days ago. Every figure is checked against the
 * hand-computed book below and against the independent SQL computation of
 * tests/support/ageing-cells.ts, which reads the ledger, the credit notes and
 * the invoices' exit days (sums of entries up to the day, buckets by
 * width_bucket), unlike the implementation's trigger-kept changes; the exit
 * days against the days this test charged back or wrote off; and the changes
 * against their full recomputation.
 */

const D = zagrebDay(-10);
/** A day relative to D. */
const day = (offset: number) => zagrebDay(offset - 10);

interface Spec {
  key: string;
  /** A and B: recourse agreements (60 days, the factory's), C too; N without recourse. */
  client: 'A' | 'B' | 'C' | 'N';
  customer: 'X' | 'Y' | 'Z' | 'V' | 'W' | 'U';
  amount: string;
  financedOn: number | null;
  dueOn: number;
  payments?: Array<{ on: number; amount: string; refundOn?: number }>;
  /** Entered on `on`, dated `issuedOn` (default `on`). */
  creditNotes?: Array<{ on: number; issuedOn?: number; amount: string }>;
  /** A manager charges it back early, with a reason. */
  chargedBackOn?: number;
  /** A manager asks, an admin approves. */
  writtenOffOn?: number;
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
  // Credit notes (dilution): the debtor owes less from the credit note's issue date.
  { key: 'credited-before', client: 'C', customer: 'V', amount: '2000.00', financedOn: -50, dueOn: -10, creditNotes: [{ on: -8, amount: '500.00' }] },
  { key: 'credited-after', client: 'C', customer: 'W', amount: '1800.00', financedOn: -45, dueOn: -40, creditNotes: [{ on: 2, amount: '300.00' }] },
  { key: 'credited-backdated', client: 'C', customer: 'V', amount: '900.00', financedOn: -20, dueOn: 5, creditNotes: [{ on: 3, issuedOn: -3, amount: '400.00' }] },
  {
    key: 'credited-settles',
    client: 'C',
    customer: 'W',
    amount: '600.00',
    financedOn: -30,
    dueOn: -15,
    payments: [{ on: -12, amount: '100.00' }],
    creditNotes: [{ on: -6, amount: '500.00' }],
  },
  // 700.00 left below the 800.00 advance: 100.00 charged back to the client (a negative advance entry) after the day.
  { key: 'credited-excess-after', client: 'C', customer: 'V', amount: '1000.00', financedOn: -30, dueOn: 5, creditNotes: [{ on: 1, amount: '300.00' }] },
  // Recourse chargebacks: the invoice leaves the factor's book on its chargeback day.
  { key: 'charged-back-before', client: 'C', customer: 'W', amount: '1500.00', financedOn: -80, dueOn: -60, payments: [{ on: -50, amount: '200.00' }], chargedBackOn: -5 },
  { key: 'charged-back-after', client: 'C', customer: 'V', amount: '2200.00', financedOn: -90, dueOn: -70, chargedBackOn: 2 },
  // 850.00 paid repays the 800.00 advance: the chargeback books no ledger entry; the debtor pays 100.00 after it.
  {
    key: 'charged-back-repaid',
    client: 'C',
    customer: 'W',
    amount: '1000.00',
    financedOn: -60,
    dueOn: -35,
    payments: [
      { on: -20, amount: '850.00' },
      { on: 3, amount: '100.00' },
    ],
    chargedBackOn: 1,
  },
  // Write-offs (without recourse): the invoice leaves the factor's book on the approval day.
  { key: 'written-off-before', client: 'N', customer: 'V', amount: '3000.00', financedOn: -150, dueOn: -100, writtenOffOn: -7 },
  { key: 'written-off-after', client: 'N', customer: 'W', amount: '1234.56', financedOn: -140, dueOn: -100, payments: [{ on: -60, amount: '234.56' }], writtenOffOn: 1 },
  // Financed once V's invoice more than 90 days past due was written off (the cross-ageing check counts the financed book).
  { key: 'n-open', client: 'N', customer: 'V', amount: '400.00', financedOn: -5, dueOn: 25 },
  // Paid off long before the day, in two calendar years whatever today is: a report before its last payment subtracts whole years.
  {
    key: 'years-ago',
    client: 'C',
    customer: 'U',
    amount: '500.00',
    financedOn: -400,
    dueOn: -370,
    payments: [
      { on: -380, amount: '200.00' },
      { on: -100, amount: '300.00' },
    ],
  },
];

let b: Book;
let cookie: string;
const clients: Record<string, Party> = {};
const customers: Record<string, Party> = {};
const invoiceIds: Record<string, string> = {};
/** The invoices this test charged back or wrote off, and the day (relative to D). */
const exits: Array<{ key: string; on: number }> = [];

async function buildBook() {
  b = await book();
  const admin = await staff('admin');
  clients.A = await financeableClient({ name: 'Ageing A d.o.o.' });
  clients.B = await financeableClient({ name: 'Ageing B d.o.o.' });
  clients.C = await financeableClient({ name: 'Ageing C d.o.o.', agreement: { validFrom: zagrebDay(-500) } });
  clients.N = await financeableClient({ name: 'Ageing N d.o.o.', agreement: { recourseDays: null } });
  for (const key of ['X', 'Y', 'Z', 'V', 'W', 'U']) customers[key] = await insertCustomer({ name: `Dužnik ${key} d.d.` });
  // Every step on its own business day, in the order of the days (a refund after its payment).
  const steps: BookStep[] = [];
  for (const spec of SPECS) {
    const issueOn = spec.financedOn === null ? spec.dueOn - 30 : spec.financedOn - 5;
    const invoice = await bookInvoiceSteps(b, day, { ...spec, clientId: clients[spec.client].id, customerId: customers[spec.customer].id, issueOn });
    invoiceIds[spec.key] = invoice.id;
    steps.push(...invoice.steps);
    if (spec.financedOn === null) continue;
    (spec.creditNotes ?? []).forEach((note, index) => {
      const input = { number: `ODB-${spec.key}-${index + 1}`, issueDate: day(note.issuedOn ?? note.on), amount: note.amount, reason: 'Povrat robe' };
      steps.push({ on: note.on, run: (transaction) => addCreditNote({ actor: b.manager, invoiceId: invoice.id, input }, { transaction }) });
    });
    if (spec.chargedBackOn !== undefined) {
      exits.push({ key: spec.key, on: spec.chargedBackOn });
      steps.push({ on: spec.chargedBackOn, run: (transaction) => chargeBackInvoice({ actor: b.manager, id: invoice.id, input: { reason: 'Dužnik u stečaju' } }, { transaction }) });
    }
    if (spec.writtenOffOn !== undefined) {
      exits.push({ key: spec.key, on: spec.writtenOffOn });
      steps.push({
        on: spec.writtenOffOn,
        run: async (transaction) => {
          const request = await requestWriteOff({ actor: b.manager, invoiceId: invoice.id, input: { reason: 'Dužnik likvidiran' } });
          return approveWriteOff({ actor: admin, id: request.id }, { transaction });
        },
      });
    }
  }
  await runBookSteps(steps, day);
}

beforeAll(async () => {
  await buildBook();
  cookie = await signedInCookie((await createTestUser({ role: 'user' })).id);
}, 180_000);

/** Two rows at a time, the report lists exactly its whole list, in its order; so does the exports' every row. */
async function expectPagesAsWhole(by: AgeingBy, asOf: string) {
  const whole = await ageingReport({ asOf, by, limit: 1000 });
  const paged = [];
  for (let start = 0; start < whole.count; start += 2) paged.push(...(await ageingReport({ asOf, by, limit: 2, offset: start })).rows);
  expect(paged, `${by} on ${asOf}`).toEqual(whole.rows);
  expect((await ageingReport({ asOf, by, limit: null })).rows, `${by} on ${asOf}, every row`).toEqual(whole.rows);
}

describe('the report on a fixed past day', () => {
  it('holds, per client, exactly the open amounts of the hand-computed book, largest total first', async () => {
    const report = await ageingReport({ asOf: D, by: 'client' });
    expect(report.asOf).toBe(D);
    expect(report.count).toBe(4);
    expect(report.rows.map((row) => row.name)).toEqual(['Ageing A d.o.o.', 'Ageing C d.o.o.', 'Ageing B d.o.o.', 'Ageing N d.o.o.']);
    // A: 900.00 (1000 − 100 paid before; 200 after does not count) and 2500.50 due on the day: not due; 780.10 − 80.10 at 31 days;
    // 150.00 at 90 days; 5000.00 − 1234.56 at 200 days. Settled before, financed after and never financed: not in it.
    expect(cellsOf(report.rows[0])).toEqual({ notDue: 340050, days1to30: 0, days31to60: 70000, days61to90: 15000, over90: 376544, total: 801594, invoices: 5 });
    // B: 333.33 at 1 day, 1200.00 at 30, 800.00 − 300.00 settled only after the day at 5; 4000 − 1000 (500 came after) at 61;
    // 999.99 at 91; 450.00 − 300.00 refunded only after the day, not due.
    expect(cellsOf(report.rows[2])).toEqual({ notDue: 15000, days1to30: 203333, days31to60: 0, days61to90: 300000, over90: 99999, total: 618332, invoices: 6 });
    // C: 900.00 less the 400.00 credit note entered after the day but dated before it, and 1000.00 whose credit note came after:
    // not due; 2000.00 − 500.00 credited before the day at 10 days; 1800.00 (credited only after) at 40 and 1000.00 − 850.00
    // at 35 (charged back only after the day); 2200.00 charged back after the day at 70. Settled by its credit note before
    // the day, charged back before it: not in it.
    expect(cellsOf(report.rows[1])).toEqual({ notDue: 150000, days1to30: 150000, days31to60: 195000, days61to90: 220000, over90: 0, total: 715000, invoices: 6 });
    // N: 400.00 not due; 1234.56 − 234.56 written off after the day, at 100 days. Written off before the day: not in it.
    expect(cellsOf(report.rows[3])).toEqual({ notDue: 40000, days1to30: 0, days31to60: 0, days61to90: 0, over90: 100000, total: 140000, invoices: 2 });
    expect(cellsOf(report.totals)).toEqual({ notDue: 545050, days1to30: 353333, days31to60: 265000, days61to90: 535000, over90: 576543, total: 2274926, invoices: 19 });
  });

  it('by customer: the same open items per debtor, ordered by total', async () => {
    const report = await ageingReport({ asOf: D, by: 'customer' });
    // V: 1500.00 + 500.00 + 1000.00 + 2200.00 of C's, 400.00 of N's; W: 1800.00 + 150.00 of C's, 1000.00 of N's.
    expect(report.rows.map((row) => [row.name, Math.round(row.total * 100), row.invoices])).toEqual([
      ['Dužnik V d.d.', 560000, 5],
      ['Dužnik X d.d.', 508333, 5],
      ['Dužnik Z d.d.', 476543, 2],
      ['Dužnik Y d.d.', 435050, 4],
      ['Dužnik W d.d.', 295000, 3],
    ]);
    expect(report.rows[1].oib).toBe(customers.X.oib);
    expect(cellsOf(report.totals)).toEqual(cellsOf((await ageingReport({ asOf: D, by: 'client' })).totals));
  });

  // Every day of a booking of the book and the day before it, a day before anything, and today.
  const bookings = SPECS.flatMap((spec) => [
    spec.financedOn,
    ...(spec.payments ?? []).flatMap((payment) => [payment.on, payment.refundOn]),
    ...(spec.creditNotes ?? []).flatMap((note) => [note.on, note.issuedOn]),
    spec.chargedBackOn,
    spec.writtenOffOn,
  ]);
  const days = [...new Set([-450, 10, ...bookings.filter((on) => on !== null && on !== undefined).flatMap((on) => [on - 1, on])])].sort((a, b) => a - b);
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

  it.each(['client', 'customer'] as const)('pages the same rows in the same order as the whole report, on every day around the bookings, by %s', async (by) => {
    for (const offset of days) await expectPagesAsWhole(by, day(offset));
  });

  it('is empty before the first financing', async () => {
    const report = await ageingReport({ asOf: day(-401), by: 'client' });
    expect(report).toEqual({ asOf: day(-401), by: 'client', count: 0, totals: { ...emptyCells() }, rows: [] });
  });
});

describe('today', () => {
  it('totals equal the open book: Σ amount − paid − credited of the financed invoices, the analytics open exposure on customers', async () => {
    const report = await ageingReport({});
    expect(report.asOf).toBe(zagrebDay(0));
    const [open] = await selectRows<{ open: string; invoices: number }>(
      `SELECT sum(amount - paid_amount - credited_amount) AS open, count(*)::int AS invoices FROM invoices WHERE status = 'financed'`,
    );
    expect(Math.round(report.totals.total * 100)).toBe(toCents(open.open));
    expect(report.totals.invoices).toBe(open.invoices);
    const analytics = await analyticsFor({ period: '30d' });
    expect(report.totals.total).toBe(analytics.concentration.customers.total);
    // By hand: every financed invoice's amount less what was paid and credited on it by now; the settled three are gone, the
    // refunded one is whole again, the charged-back and written-off ones have left the book.
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
      'credited-before:1500.00',
      'credited-after:1500.00',
      'credited-backdated:500.00',
      'credited-excess-after:700.00',
      'n-open:400.00',
    ];
    expect(Math.round(report.totals.total * 100)).toBe(byHand.reduce((sum, item) => sum + toCents(item.split(':')[1]), 0));
    expect(reportCells(report)).toEqual(await independentCells(zagrebDay(0), 'client'));
    expect(reportCells(await ageingReport({ by: 'customer', limit: 1000 }))).toEqual(await independentCells(zagrebDay(0), 'customer'));
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
    expect(response.headers.get('X-Total-Count')).toBe('5');
    const body = (await response.json()) as AgeingReport;
    expect(body.rows.map((row) => row.id)).toEqual([customers.X.id, customers.Z.id]);
    // X: not due 900.00 + 150.00, 1–30 333.33, 31–60 700.00, 61–90 3000.00.
    expect(body.rows[0]).toEqual({
      id: customers.X.id,
      name: 'Dužnik X d.d.',
      oib: customers.X.oib,
      notDue: 1050,
      days1to30: 333.33,
      days31to60: 700,
      days61to90: 3000,
      over90: 0,
      total: 5083.33,
      invoices: 5,
    });
    expect(body.totals.total).toBe(22749.26);
    expect(body.count).toBe(5);
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
      `${D};client;${clients.C.id};Ageing C d.o.o.;${clients.C.oib};1500,00;1500,00;1950,00;2200,00;0,00;7150,00;6`,
      `${D};client;${clients.B.id};Ageing B d.o.o.;${clients.B.oib};150,00;2033,33;0,00;3000,00;999,99;6183,32;6`,
      `${D};client;${clients.N.id};Ageing N d.o.o.;${clients.N.oib};400,00;0,00;0,00;0,00;1000,00;1400,00;2`,
      `${D};client;;total;;5450,50;3533,33;2650,00;5350,00;5765,43;22749,26;19`,
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
    expect(['A6', 'A7', 'A8', 'A9', 'A10'].map((ref) => cell(ref)?.value)).toEqual(['Dužnik V d.d.', 'Dužnik X d.d.', 'Dužnik Z d.d.', 'Dužnik Y d.d.', 'Dužnik W d.d.']);
    // X: not due 900.00 + 150.00, 1–30 333.33, 31–60 700.00, 61–90 3000.00.
    expect(['C7', 'D7', 'E7', 'F7', 'G7', 'H7', 'I7'].map((ref) => cell(ref)?.value)).toEqual([1050, 333.33, 700, 3000, 0, 5083.33, 5]);
    // V: not due 500.00 + 1000.00 + 400.00, 1–30 1500.00, 61–90 2200.00.
    expect(['C6', 'D6', 'E6', 'F6', 'G6', 'H6', 'I6'].map((ref) => cell(ref)?.value)).toEqual([1900, 1500, 0, 2200, 0, 5600, 5]);
    expect(cell('C6')?.format).toBe(XLSX_NUMBER_FORMATS.eur);
    expect(cell('A11')?.value).toBe('Ukupno');
    expect(cell('H11')).toMatchObject({ value: 22749.26, format: XLSX_NUMBER_FORMATS.eur });
  });
});

describe('the /analytics ageing tab', () => {
  it('reads its URL forgivingly but shows a bad day as a refusal with no figures', async () => {
    const url = (query: string) => new URL(`http://localhost/analytics?tab=ageing&${query}`);
    const data = await ageingPage(url(`asOf=${D}&by=nobody&party=${clients.A.id}&bucket=over90&page=x`));
    expect(data).toMatchObject({ by: 'client', bucket: 'over90', page: 1, error: null });
    expect(data.report?.count).toBe(4);
    expect(data.drill?.items.map((item) => item.id)).toEqual([invoiceIds.dpd200]);
    const future = await ageingPage(url(`asOf=${zagrebDay(3)}`));
    expect(future.report).toBeNull();
    expect(future.error).toContain('analytics.ageing.errors.asOfFuture');
  });
});

describe('charged back and written off', () => {
  it('leave the book on the business day of the chargeback or the approval, also when nothing was booked that day', async () => {
    const rows = await selectRows<{ id: string; status: string; left_book_on: string }>(
      `SELECT id, status, to_char(left_book_on, 'YYYY-MM-DD') AS left_book_on FROM invoices WHERE left_book_on IS NOT NULL`,
    );
    expect(new Map(rows.map((row) => [row.id, [row.status, row.left_book_on]]))).toEqual(
      new Map(
        exits.map((exit) => [invoiceIds[exit.key], [SPECS.find((spec) => spec.key === exit.key)!.chargedBackOn === undefined ? 'written_off' : 'charged_back', day(exit.on)]]),
      ),
    );
    // Its advance was repaid before the chargeback: nothing moved from the debtor's financing to the client's debt that day.
    const repaid = invoiceIds['charged-back-repaid'];
    const [booked] = await selectRows<{ entries: number }>(
      `SELECT count(*)::int AS entries FROM client_ledger WHERE invoice_id = :repaid AND kind IN ('advance', 'chargeback') AND booked_on = CAST(:day AS date)`,
      { repaid, day: day(1) },
    );
    expect(booked.entries).toBe(0);
    const open = async (offset: number) => (await ageingInvoices({ asOf: day(offset), by: 'client', partyId: clients.C.id, limit: 1000 })).items.map((item) => item.id);
    expect(await open(0)).toContain(repaid);
    expect(await open(1)).not.toContain(repaid);
    // The debtor's payment after the chargeback is the client's credit, not the factor's open book.
    expect(await open(3)).not.toContain(repaid);
  });
});

describe('the open book the database keeps', () => {
  it('equals its full recomputation, before and after the housekeeping folds the deltas, and the report does not move', async () => {
    await expectOpenBookRecomputed();
    const before = await Promise.all(['client', 'customer'].flatMap((by) => [D, day(-40), day(-120)].map((asOf) => ageingReport({ asOf, by, limit: 1000 }))));
    const deltas = async () => (await selectRows<{ n: number }>('SELECT count(*)::int AS n FROM open_book_deltas'))[0].n;
    expect(await deltas()).toBeGreaterThan(0);
    await compactOpenBook();
    expect(await deltas()).toBe(0);
    const [{ keys, rows }] = await selectRows<{ keys: number; rows: number }>(
      `SELECT count(DISTINCT (scope, party_id, due_date, period, period_start))::int AS keys, count(*)::int AS rows FROM open_book_totals`,
    );
    expect(rows).toBe(keys);
    await expectOpenBookRecomputed();
    const after = await Promise.all(['client', 'customer'].flatMap((by) => [D, day(-40), day(-120)].map((asOf) => ageingReport({ asOf, by, limit: 1000 }))));
    expect(after).toEqual(before);
    // Folded, each party's total is its one row, read largest first as far as a page needs.
    for (const by of ['client', 'customer'] as const) for (const offset of [-380, -120, -40, -6, 0, 2, 10]) await expectPagesAsWhole(by, day(offset));
  });

  it('stays exact when two managers confirm payments and a third enters a credit note on one debtor at the same moment', async () => {
    const others = await Promise.all([staff('manager'), staff('manager')]);
    const debtor = await insertCustomer({ name: 'Dužnik Q d.d.' });
    const invoices = [];
    for (const client of [clients.A, clients.B, clients.C]) {
      const invoice = await newInvoice(b.user, client.id, debtor.id, { amount: '1000.00', issueDate: zagrebDay(-5), dueDate: zagrebDay(25) });
      await verifyInvoice({ actor: b.manager, id: invoice.id });
      await approveInvoice({ actor: b.manager2, id: invoice.id });
      await financeInvoice({ actor: b.manager, id: invoice.id });
      invoices.push(invoice);
    }
    const payments = await Promise.all(
      invoices.slice(0, 2).map((invoice) => recordPayment({ actor: b.user, input: { invoiceId: invoice.id, amount: '250.00', reference: 'HR00 istodobno' } })),
    );
    await Promise.all([
      confirmPayment({ actor: others[0], id: payments[0].id }),
      confirmPayment({ actor: others[1], id: payments[1].id }),
      addCreditNote({ actor: b.manager, invoiceId: invoices[2].id, input: { number: 'ODB-istodobno', issueDate: zagrebDay(0), amount: '100.00', reason: 'Popust' } }),
    ]);
    await expectOpenBookRecomputed();
    const report = await ageingReport({ by: 'customer', limit: 1000 });
    expect(reportCells(report)).toEqual(await independentCells(zagrebDay(0), 'customer'));
    // 750.00 + 750.00 + 900.00 of the three invoices.
    expect(report.rows.find((row) => row.id === debtor.id)).toMatchObject({ total: 2400, invoices: 3 });
  });
});
