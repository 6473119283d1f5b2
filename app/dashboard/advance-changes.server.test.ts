import type { Transaction } from 'sequelize';
import { beforeAll, describe, expect, it } from 'vitest';
import { execute, inTransaction, selectOne, selectRows } from '../db.server.ts';
import { ledgerUsedCredit, postLedgerEntries, type LedgerEntryInput } from '../ledger/ledger.server.ts';
import { toCents } from '../utils/money.ts';
import { dashboardMetrics } from './metrics.server.ts';
import { insertClient, insertCustomer, insertInvoice, zagrebDay } from '../../tests/factories.ts';

/**
 * The maintained month changes of the advances outstanding
 * (client_advance_changes, db/migrations/2026.11.28T03.00.00.client-advance-changes.ts)
 * must equal recomputing them from the ledger with count(*) and sum(), after
 * every kind of write: one entry, several in one statement, entries booked in
 * past and future months, collections beyond the advance (the clamp at zero),
 * a rolled-back transaction, two writers at once on one invoice and on one
 * client, and a delete where the append-only guard is lifted.
 */

/** The first day of the month `months` from today's Croatian month, 'YYYY-MM-DD'. */
function monthStart(months: number): string {
  const today = zagrebDay();
  const date = new Date(Date.UTC(Number(today.slice(0, 4)), Number(today.slice(5, 7)) - 1 + months, 1));
  return date.toISOString().slice(0, 10);
}
/** A day inside that month. */
const dayIn = (months: number, day = 10) => `${monthStart(months).slice(0, 8)}${String(day).padStart(2, '0')}`;

interface MonthChange {
  client: string;
  month: string;
  cents: number;
}

async function maintained(): Promise<MonthChange[]> {
  const rows = await selectRows<{ client: string; month: string; change: string }>(
    `SELECT client_id AS client, to_char(month, 'YYYY-MM') AS month, change FROM client_advance_changes WHERE change <> 0 ORDER BY 1, 2`,
  );
  return rows.map((row) => ({ client: row.client, month: row.month, cents: toCents(row.change) }));
}

/**
 * From the ledger alone: per client and month, the sum over its invoices of the
 * advance outstanding (the entries' sum, never below zero) on the entries booked
 * before the next month, less that on the entries booked before the month.
 */
async function recomputed(): Promise<MonthChange[]> {
  const rows = await selectRows<{ client: string; month: string; change: string; entries: number }>(
    `WITH months AS (
       SELECT DISTINCT client_id, invoice_id, to_char(booked_on, 'YYYY-MM') AS month FROM client_ledger WHERE kind IN ('advance', 'collection'))
     SELECT m.client_id AS client, m.month,
            sum(greatest(0, (SELECT coalesce(sum(l.amount), 0) FROM client_ledger l
                              WHERE l.invoice_id = m.invoice_id AND l.kind IN ('advance', 'collection') AND to_char(l.booked_on, 'YYYY-MM') <= m.month))
              - greatest(0, (SELECT coalesce(sum(l.amount), 0) FROM client_ledger l
                              WHERE l.invoice_id = m.invoice_id AND l.kind IN ('advance', 'collection') AND to_char(l.booked_on, 'YYYY-MM') < m.month))) AS change,
            count(*)::int AS entries
       FROM months m GROUP BY 1, 2 ORDER BY 1, 2`,
  );
  return rows.filter((row) => toCents(row.change) !== 0).map((row) => ({ client: row.client, month: row.month, cents: toCents(row.change) }));
}

async function expectMaintainedEqualsLedger() {
  const expected = await recomputed();
  expect(await maintained()).toEqual(expected);
  // Every month summed: what is outstanding now, the used credit the ledger writer keeps.
  for (const client of new Set(expected.map((row) => row.client))) {
    const all = expected.filter((row) => row.client === client).reduce((sum, row) => sum + row.cents, 0);
    expect(all).toBe(await ledgerUsedCredit(client));
  }
}

let clientA: string;
let clientB: string;
let customerId: string;
const invoices: Record<string, string> = {};

beforeAll(async () => {
  clientA = (await insertClient({ name: 'Mjesečni d.o.o.', creditLimit: '100000.00' })).id;
  clientB = (await insertClient({ name: 'Drugi mjesec d.o.o.', creditLimit: '5000.00' })).id;
  // Clients from before this month, so the month-start comparison counts them.
  await execute(`UPDATE clients SET created_at = now() - interval '6 months' WHERE id IN (:ids)`, { ids: [clientA, clientB] });
  customerId = (await insertCustomer({ name: 'Kupac mjeseca d.d.' })).id;
  for (const [name, clientId] of [
    ['a1', clientA],
    ['a2', clientA],
    ['a3', clientA],
    ['a4', clientA],
    ['a5', clientA],
    ['b1', clientB],
    ['b2', clientB],
  ] as const) {
    invoices[name] = await insertInvoice({ clientId, customerId, amount: '10000.00', dueDate: dayIn(2) });
  }
});

const advance = (invoice: string, client: string, euros: number, bookedOn: string): LedgerEntryInput => ({
  clientId: client,
  kind: 'advance',
  amountCents: Math.round(euros * 100),
  description: `Predujam ${invoice}`,
  createdBy: null,
  bookedOn,
  invoiceId: invoices[invoice],
});
const collection = (invoice: string, client: string, euros: number, bookedOn: string): LedgerEntryInput => ({
  ...advance(invoice, client, -euros, bookedOn),
  kind: 'collection',
  description: `Naplata ${invoice}`,
});

/** As the ledger's callers do: the invoices locked first (app/ledger/ledger.server.ts), then the entries. */
async function book(entries: LedgerEntryInput[], options: { holdMs?: number; transaction?: Transaction } = {}) {
  return inTransaction(async (transaction) => {
    const ids = [...new Set(entries.map((entry) => entry.invoiceId!))].sort();
    await execute('SELECT id FROM invoices WHERE id IN (:ids) ORDER BY id FOR UPDATE', { ids }, { transaction });
    await postLedgerEntries(entries, transaction);
    // Keeps the transaction open, so a second writer started meanwhile has to wait for it.
    if (options.holdMs) await execute('SELECT pg_sleep(:seconds)', { seconds: options.holdMs / 1000 }, { transaction });
  });
}

describe('the maintained month changes of the advances outstanding', () => {
  it('equal the ledger recomputed after single, bulk, past, future and over-collected writes and a rollback', async () => {
    await expectMaintainedEqualsLedger();
    await book([advance('a1', clientA, 800, dayIn(-2))]);
    await expectMaintainedEqualsLedger();
    // Collected in part last month, then more than what is left this month: the outstanding stops at zero.
    await book([collection('a1', clientA, 300, dayIn(-1))]);
    await book([collection('a1', clientA, 600.55, dayIn(0, 3))]);
    await expectMaintainedEqualsLedger();
    expect((await maintained()).filter((row) => row.client === clientA)).toEqual([
      { client: clientA, month: monthStart(-2).slice(0, 7), cents: 80_000 },
      { client: clientA, month: monthStart(-1).slice(0, 7), cents: -30_000 },
      { client: clientA, month: monthStart(0).slice(0, 7), cents: -50_000 },
    ]);

    // Several invoices and kinds in one statement, one of them booked ahead of today; the fee is not an advance.
    await book([
      advance('a2', clientA, 1000, dayIn(0, 1)),
      advance('a3', clientA, 2500.25, dayIn(-3)),
      { ...advance('a3', clientA, 37.5, dayIn(-3)), kind: 'fee' },
      collection('a2', clientA, 1000.5, dayIn(1)),
      advance('b1', clientB, 4000, dayIn(-1)),
      collection('b1', clientB, 1500, dayIn(-1, 20)),
    ]);
    await expectMaintainedEqualsLedger();
    // An advance booked in a month before the invoice's collections changes every month after it.
    await book([advance('a1', clientA, 250, dayIn(-3))]);
    await expectMaintainedEqualsLedger();

    const before = await maintained();
    await expect(
      inTransaction(async (transaction) => {
        await postLedgerEntries([advance('a4', clientA, 9000, dayIn(0))], transaction);
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');
    expect(await maintained()).toEqual(before);
  });

  it('stay exact when two writers book on one invoice and on one client at once', async () => {
    await book([advance('a5', clientA, 3000, dayIn(-1)), advance('b2', clientB, 2000, dayIn(-2))]);
    // The first writer holds its locks for a moment; the others start meanwhile and wait for it.
    await Promise.all([
      book([collection('a5', clientA, 2000, dayIn(0))], { holdMs: 300 }),
      book([collection('a5', clientA, 1500, dayIn(0, 2))]),
      // A collection that may land before its invoice's advance (the order is the race's): outstanding never below zero either way.
      book([collection('a4', clientA, 100, dayIn(0))]),
      book([advance('a4', clientA, 700, dayIn(0, 4))], { holdMs: 200 }),
      book([collection('b2', clientB, 2500, dayIn(0))]),
      book([advance('b1', clientB, 10, dayIn(0)), collection('b2', clientB, 1, dayIn(1))]),
    ]);
    await expectMaintainedEqualsLedger();
    // 3,000 advanced last month, 3,500 collected this month: this month takes it to zero, not below.
    const a5 = await selectOne<{ n: number }>(`SELECT count(*)::int AS n FROM client_ledger WHERE invoice_id = :id`, { id: invoices.a5 });
    expect(a5!.n).toBe(3);
  });

  it('give the dashboard the month-start comparison the ledger gives', async () => {
    const { availableForFinancing, notes } = await dashboardMetrics();
    const firstOfMonth = monthStart(0);
    const clients = await selectRows<{ id: string; credit_limit: string | null; used_credit: string; this_month: boolean }>(
      `SELECT id, credit_limit, used_credit, created_at >= (CAST(:first AS date) AT TIME ZONE 'Europe/Zagreb') AS this_month FROM clients WHERE status = 'active'`,
      { first: firstOfMonth },
    );
    let nowCents = 0;
    let beforeCents = 0;
    for (const client of clients) {
      const limit = toCents(client.credit_limit ?? '0');
      nowCents += Math.max(limit - toCents(client.used_credit), 0);
      if (client.this_month) continue;
      const open = await selectOne<{ s: string | null }>(
        `SELECT sum(greatest(0, o.s)) AS s FROM (
           SELECT sum(amount) AS s FROM client_ledger WHERE client_id = :id AND kind IN ('advance', 'collection') AND booked_on < CAST(:first AS date) GROUP BY invoice_id) o`,
        { id: client.id, first: firstOfMonth },
      );
      beforeCents += Math.max(limit - toCents(open?.s ?? '0'), 0);
    }
    expect(Math.round(availableForFinancing * 100)).toBe(nowCents);
    expect(beforeCents).toBeGreaterThan(0);
    expect(notes.availableForFinancingChange).toBe(Math.round((1000 * (nowCents - beforeCents)) / beforeCents) / 10);
  });

  it('follow a delete where the append-only guard is lifted on purpose', async () => {
    await inTransaction(async (transaction) => {
      await execute('ALTER TABLE client_ledger DISABLE TRIGGER client_ledger_append_only', {}, { transaction });
      await execute(`DELETE FROM client_ledger WHERE invoice_id = :id AND kind = 'collection' AND booked_on = :day`, { id: invoices.a1, day: dayIn(-1) }, { transaction });
      await execute('ALTER TABLE client_ledger ENABLE TRIGGER client_ledger_append_only', {}, { transaction });
    });
    // The used credit is the writer's to keep; a delete bypasses it, so only the months are compared here.
    expect(await maintained()).toEqual(await recomputed());
  });

  it('are emptied with the ledger', async () => {
    await execute('TRUNCATE client_ledger');
    expect(await selectOne<{ n: number }>('SELECT count(*)::int AS n FROM client_advance_changes')).toEqual({ n: 0 });
  });
});
