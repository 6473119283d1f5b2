import type { Transaction } from 'sequelize';
import { beforeAll, describe, expect, it } from 'vitest';
import { execute, selectRows } from '../db.server.ts';
import { chargeBackInvoice } from '../recourse/recourse.server.ts';
import { approveWriteOff, requestWriteOff } from '../recourse/write-off.server.ts';
import { ageingInvoices, ageingReport } from './ageing.server.ts';
import { book, financeableClient, insertCustomer, staff, zagrebDay, type Book, type Party } from '../../tests/factories.ts';
import { bookInvoiceSteps, runBookSteps, type BookStep } from '../../tests/support/ageing-book.ts';
import { cellsOf, emptyCells, independentCells, reportCells } from '../../tests/support/ageing-cells.ts';

/**
 * The ageing report (docs/collections.md#ageing) over invoices that left the
 * book unpaid (docs/collections.md#recourse-and-write-off): charged back or
 * written off after the as-of day D they were still open on it, by their
 * amount less the collections up to it; closed on or before it they are not
 * in it, whatever the debtor paid since. One chargeback books nothing (the
 * debtor had repaid the advance), one write-off leaves a negative advance
 * entry after D. Every step on its own business day through the real
 * modules; the figures by hand and against an independent SQL over the
 * ledger and the invoices' closing days.
 */

const D = zagrebDay(-10);
/** A day relative to D. */
const day = (offset: number) => zagrebDay(offset - 10);

interface Spec {
  key: string;
  client: 'R' | 'N';
  customer: 'X' | 'Y';
  amount: string;
  financedOn: number;
  dueOn: number;
  payments?: Array<{ on: number; amount: string }>;
  /** Charged back (client R, with recourse) or written off (client N, without) on this day. */
  closedOn?: number;
}

const SPECS: Spec[] = [
  {
    key: 'cb-after',
    client: 'R',
    customer: 'X',
    amount: '1000.00',
    financedOn: -40,
    dueOn: -20,
    payments: [
      { on: -30, amount: '200.00' },
      { on: 5, amount: '300.00' },
    ],
    closedOn: 3,
  },
  { key: 'cb-before', client: 'R', customer: 'Y', amount: '2000.00', financedOn: -90, dueOn: -70, payments: [{ on: 2, amount: '500.00' }], closedOn: -5 },
  // 1,000.00 of 1,200.00 paid, more than the 960.00 advance: the chargeback has no advance to move.
  { key: 'cb-repaid', client: 'R', customer: 'X', amount: '1200.00', financedOn: -40, dueOn: -25, payments: [{ on: -28, amount: '1000.00' }], closedOn: 4 },
  { key: 'wo-after', client: 'N', customer: 'X', amount: '1600.00', financedOn: -60, dueOn: -45, closedOn: 1 },
  { key: 'wo-before', client: 'N', customer: 'Y', amount: '700.00', financedOn: -50, dueOn: -30, closedOn: -2 },
  { key: 'open', client: 'R', customer: 'Y', amount: '500.00', financedOn: -10, dueOn: 20 },
];

let b: Book;
const clients: Record<string, Party> = {};
const customers: Record<string, Party> = {};
const invoiceIds: Record<string, string> = {};

/**
 * The closing instant at noon of its business day, as production stamps it (there the business day is the clock's;
 * under a test's fixed day the domain's now() is the real clock).
 */
async function stampClosing(column: 'charged_back_at' | 'written_off_at', invoiceId: string, closedOn: string, transaction: Transaction) {
  await execute(`UPDATE invoices SET ${column} = CAST(:at AS timestamp) AT TIME ZONE 'Europe/Zagreb' WHERE id = :id`, { id: invoiceId, at: `${closedOn} 12:00` }, { transaction });
}

beforeAll(async () => {
  b = await book();
  const [requester, approver] = await Promise.all([staff('admin'), staff('admin')]);
  clients.R = await financeableClient({ name: 'Regres d.o.o.' });
  clients.N = await financeableClient({ name: 'Bez regresa d.o.o.', agreement: { recourseDays: null } });
  for (const key of ['X', 'Y']) customers[key] = await insertCustomer({ name: `Dužnik ${key} d.d.` });
  const steps: BookStep[] = [];
  for (const spec of SPECS) {
    const invoice = await bookInvoiceSteps(b, day, { ...spec, clientId: clients[spec.client].id, customerId: customers[spec.customer].id, issueOn: spec.financedOn - 5 });
    invoiceIds[spec.key] = invoice.id;
    steps.push(...invoice.steps);
    const closedOn = spec.closedOn;
    if (closedOn === undefined) continue;
    steps.push({
      on: closedOn,
      run: async (transaction) => {
        if (spec.client === 'R') {
          await chargeBackInvoice({ actor: b.manager, id: invoice.id, input: { reason: 'Dužnik ne plaća' } }, { transaction });
          await stampClosing('charged_back_at', invoice.id, day(closedOn), transaction);
        } else {
          const request = await requestWriteOff({ actor: requester, invoiceId: invoice.id, input: { reason: 'Dužnik likvidiran' } });
          await approveWriteOff({ actor: approver, id: request.id }, { transaction });
          await stampClosing('written_off_at', invoice.id, day(closedOn), transaction);
        }
      },
    });
  }
  await runBookSteps(steps, day);
}, 180_000);

describe('invoices charged back or written off in the ageing report', () => {
  it('counts those closed after the day with what was open then, and leaves out those closed on or before it', async () => {
    const statuses = await selectRows<{ id: string; status: string }>('SELECT id, status FROM invoices WHERE id IN (:ids)', { ids: Object.values(invoiceIds) });
    expect(Object.fromEntries(statuses.map((row) => [Object.keys(invoiceIds).find((key) => invoiceIds[key] === row.id), row.status]))).toEqual({
      'cb-after': 'charged_back',
      'cb-before': 'charged_back',
      'cb-repaid': 'charged_back',
      'wo-after': 'written_off',
      'wo-before': 'written_off',
      open: 'financed',
    });
    // Each left the book on the business day it was closed (left_book_on, docs/collections.md#ageing), the Croatian day of
    // its stamp as in production.
    const exits = await selectRows<{ id: string; left_book_on: string; stamped_on: string }>(
      `SELECT id, to_char(left_book_on, 'YYYY-MM-DD') AS left_book_on,
              to_char(coalesce(charged_back_at, written_off_at) AT TIME ZONE 'Europe/Zagreb', 'YYYY-MM-DD') AS stamped_on
         FROM invoices WHERE id IN (:ids) AND left_book_on IS NOT NULL`,
      { ids: Object.values(invoiceIds) },
    );
    const closedOn = new Map(SPECS.flatMap((spec) => (spec.closedOn === undefined ? [] : [[invoiceIds[spec.key], day(spec.closedOn)] as const])));
    expect(new Map(exits.map((row) => [row.id, row.left_book_on]))).toEqual(closedOn);
    expect(new Map(exits.map((row) => [row.id, row.stamped_on]))).toEqual(closedOn);
    // The repaid one's chargeback moved no advance: nothing of it in the ledger's advance or collection after D.
    expect(
      await selectRows(`SELECT id FROM client_ledger WHERE invoice_id = :id AND kind IN ('advance', 'chargeback') AND booked_on > :d`, { id: invoiceIds['cb-repaid'], d: D }),
    ).toEqual([]);

    const report = await ageingReport({ asOf: D, by: 'client' });
    expect(report.rows.map((row) => row.name)).toEqual(['Bez regresa d.o.o.', 'Regres d.o.o.']);
    // Without recourse: 1,600.00 written off after D, 45 days past due on it; 700.00 written off before D is gone.
    expect(cellsOf(report.rows[0])).toEqual({ ...emptyCells(), days31to60: 160_000, total: 160_000, invoices: 1 });
    // With recourse: 1,000.00 − 200.00 (the 300.00 after its chargeback does not count) at 20 days; 1,200.00 − 1,000.00
    // at 25 days; 500.00 not yet due. The 2,000.00 charged back before D is gone, though 500.00 came in after D.
    expect(cellsOf(report.rows[1])).toEqual({ ...emptyCells(), notDue: 50_000, days1to30: 100_000, total: 150_000, invoices: 3 });

    // The day before its chargeback Y still owed the 2,000.00 (64 days past due), besides 700.00 and 500.00; on the
    // day of the chargeback it has left the book.
    const before = await ageingReport({ asOf: day(-6), by: 'customer' });
    expect(before.rows.find((row) => row.id === customers.Y.id)).toMatchObject({ notDue: 500, days1to30: 700, days61to90: 2000, total: 3200, invoices: 3 });
    const onClosing = await ageingReport({ asOf: day(-5), by: 'customer' });
    expect(onClosing.rows.find((row) => row.id === customers.Y.id)).toMatchObject({ days61to90: 0, total: 1200, invoices: 2 });

    // Today only the financed one is left: the report is the open book.
    const today = await ageingReport({});
    expect(cellsOf(today.totals)).toEqual({ ...emptyCells(), notDue: 50_000, total: 50_000, invoices: 1 });
  });

  const days = [-91, -90, -61, -60, -51, -50, -41, -40, -31, -30, -28, -6, -5, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 10];
  it.each(['client', 'customer'] as const)('equals the independent SQL on every day around the bookings and closings, by %s', async (by) => {
    for (const offset of days) {
      const asOf = day(offset);
      const report = await ageingReport({ asOf, by, limit: 1000 });
      const expected = await independentCells(asOf, by);
      expect(reportCells(report), `${by} on ${asOf}`).toEqual(expected);
      // The drill-down of every row holds the same invoices and sum.
      for (const row of report.rows) {
        const drill = await ageingInvoices({ asOf, by, partyId: row.id, limit: 1000 });
        expect([drill.total, Math.round(drill.openTotal * 100)], `${row.name} on ${asOf}`).toEqual([row.invoices, Math.round(row.total * 100)]);
      }
    }
  });
});
