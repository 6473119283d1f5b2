import { describe, expect, it } from 'vitest';
import { execute, inTransaction, selectOne, selectRows } from '../db.server.ts';
import { compactInvoiceSummaries, invoiceDayTotals, invoiceStatusTotals, payableInvoiceTotal } from './summaries.server.ts';
import { insertClient, insertCustomer } from '../../tests/factories.ts';

/**
 * The maintained invoice totals must equal counting the book, whatever
 * statements changed it: single and bulk inserts, transitions, deletes,
 * rolled-back transactions, compaction.
 */
async function parties() {
  const client = await insertClient({ name: 'Zbroj d.o.o.' });
  const customer = await insertCustomer({ name: 'Kupac zbroja d.d.' });
  return { clientId: client.id, customerId: customer.id };
}

async function insertInvoices(ids: { clientId: string; customerId: string }, count: number, prefix: string, createdAt = 'now()') {
  await execute(
    `INSERT INTO invoices (client_id, customer_id, invoice_number, amount, issue_date, due_date, created_at)
     SELECT :clientId, :customerId, :prefix || g, 100.00, current_date, current_date + 30, ${createdAt} FROM generate_series(1, :count) g`,
    { ...ids, prefix, count },
  );
}

/** What the totals must say, counted from the book. */
async function counted() {
  const rows = await selectRows<{ status: string; n: number; approved: number }>(
    `SELECT status, count(*)::int AS n, count(approved_at)::int AS approved FROM invoices GROUP BY status`,
  );
  return rows;
}

async function expectTotalsMatchTheBook() {
  // Payable as the payment form's list counts it (app/payments/open-amount.server.ts).
  const payable = await selectOne<{ n: number }>(
    `SELECT count(*)::int AS n FROM invoices WHERE status IN ('financed', 'charged_back') AND amount > paid_amount + credited_amount + pending_amount`,
  );
  expect(await payableInvoiceTotal()).toBe(payable!.n);
  const totals = await invoiceStatusTotals();
  const book = await counted();
  for (const row of book) expect(totals[row.status as keyof typeof totals]).toBe(row.n);
  expect(totals.all).toBe(book.reduce((sum, row) => sum + row.n, 0));
  expect(totals.everApproved).toBe(book.reduce((sum, row) => sum + row.approved, 0));
  const days = await selectRows<{ date: string; received: number; processed: number; approved: number }>(
    `SELECT to_char(day, 'YYYY-MM-DD') AS date, sum(r)::int AS received, sum(p)::int AS processed, sum(a)::int AS approved FROM (
       SELECT CAST(created_at AT TIME ZONE 'Europe/Zagreb' AS date) AS day, 1 AS r, 0 AS p, 0 AS a FROM invoices
       UNION ALL SELECT CAST(verified_at AT TIME ZONE 'Europe/Zagreb' AS date), 0, 1, 0 FROM invoices WHERE verified_at IS NOT NULL
       UNION ALL SELECT CAST(approved_at AT TIME ZONE 'Europe/Zagreb' AS date), 0, 0, 1 FROM invoices WHERE approved_at IS NOT NULL) e
     GROUP BY day ORDER BY day`,
  );
  if (days.length) {
    const maintained = (await invoiceDayTotals(days[0].date, days[days.length - 1].date)).filter((day) => day.received || day.processed || day.approved);
    expect(maintained).toEqual(days);
  }
}

describe('maintained invoice totals', () => {
  it('equal counting the book after inserts, transitions, deletes, rollbacks and compaction', async () => {
    const ids = await parties();
    await expectTotalsMatchTheBook();
    await insertInvoices(ids, 40, 'S-');
    await insertInvoices(ids, 5, 'OLD-', `now() - interval '40 days'`);
    await expectTotalsMatchTheBook();

    // Transitions one at a time and in bulk, with their timestamps (as the lifecycle sets them).
    await execute(`UPDATE invoices SET status = 'verified', verification_status = 'verified', verified_at = now() WHERE invoice_number IN ('S-1', 'S-2', 'S-3')`);
    await execute(`UPDATE invoices SET status = 'approved', approved_at = now() - interval '2 days' WHERE invoice_number = 'S-1'`);
    await execute(`UPDATE invoices SET status = 'rejected', rejected_at = now(), rejection_reason = 'Nepotpuno' WHERE invoice_number LIKE 'OLD-%'`);
    // Financed, partly paid, a payment pending, fully paid, charged back: in and out of the payable total.
    await execute(
      `UPDATE invoices SET status = 'financed', financed_at = now(), factor_amount = 80.00, factor_fee = 2.00 WHERE invoice_number IN ('S-10', 'S-11', 'S-12', 'S-13', 'S-14')`,
    );
    await execute(`UPDATE invoices SET paid_amount = 40.00 WHERE invoice_number = 'S-10'`);
    await execute(`UPDATE invoices SET pending_amount = 60.00 WHERE invoice_number = 'S-11'`);
    await execute(`UPDATE invoices SET paid_amount = 100.00, status = 'paid', paid_at = now() WHERE invoice_number = 'S-12'`);
    await execute(`UPDATE invoices SET status = 'charged_back', charged_back_at = now(), charge_back_reason = 'Dužnik nije platio' WHERE invoice_number = 'S-13'`);
    await expectTotalsMatchTheBook();
    // An update that changes nothing the totals count.
    await execute(`UPDATE invoices SET description = 'Opis' WHERE invoice_number LIKE 'S-%'`);
    await expectTotalsMatchTheBook();

    // A rolled-back transaction leaves the totals as they were.
    const before = await invoiceStatusTotals();
    await expect(
      inTransaction(async (transaction) => {
        await execute(`UPDATE invoices SET status = 'verified', verified_at = now() WHERE status = 'pending'`, {}, { transaction });
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');
    expect(await invoiceStatusTotals()).toEqual(before);

    await execute(`DELETE FROM invoices WHERE invoice_number IN ('S-39', 'S-40', 'S-2')`);
    await expectTotalsMatchTheBook();

    const deltaRows = async () => (await selectOne<{ n: number }>('SELECT count(*)::int AS n FROM invoice_status_deltas'))!.n;
    expect(await deltaRows()).toBeGreaterThan(4);
    await compactInvoiceSummaries();
    expect(await deltaRows()).toBe((await counted()).length);
    expect((await selectOne<{ n: number }>('SELECT count(*)::int AS n FROM invoice_payable_deltas'))!.n).toBe(1);
    await expectTotalsMatchTheBook();
    await compactInvoiceSummaries();
    await expectTotalsMatchTheBook();
  });

  it('stay exact while transactions write concurrently', async () => {
    const ids = await parties();
    await Promise.all(
      Array.from({ length: 8 }, (_, n) =>
        inTransaction(async (transaction) => {
          await execute(
            `INSERT INTO invoices (client_id, customer_id, invoice_number, amount, issue_date, due_date)
             SELECT :clientId, :customerId, :prefix || g, 10.00, current_date, current_date + 30 FROM generate_series(1, 25) g`,
            { ...ids, prefix: `C${n}-` },
            { transaction },
          );
          await execute(`UPDATE invoices SET status = 'verified', verified_at = now() WHERE invoice_number LIKE :like`, { like: `C${n}-1%` }, { transaction });
        }),
      ),
    );
    await Promise.all([compactInvoiceSummaries(), insertInvoices(ids, 3, 'LATE-'), compactInvoiceSummaries()]);
    await expectTotalsMatchTheBook();
  });
});
