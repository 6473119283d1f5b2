import { describe, expect, it } from 'vitest';
import type { Transaction } from 'sequelize';
import { execute, inTransaction, selectOne } from '../db.server.ts';
import { compactClientBookTotals, dashboardMetrics, monthStartAvailable } from './metrics.server.ts';
import { insertClient } from '../../tests/factories.ts';

/**
 * The dashboard's client figures come from totals the database keeps
 * (db/migrations/2026.11.28T11.00.00.client-book-totals.ts). They must equal
 * the figures read from every client row, whatever statements changed the
 * clients: inserts single and in bulk, status, limit, used credit and risk
 * changes, deletes, rolled-back transactions, compaction and writers at once.
 * The month-start figure (db/migrations/2026.11.28T11.10.00.client-month-start.ts)
 * also moves with client_advance_changes, written here as the ledger's
 * triggers write it, in either order with the client's used credit.
 */

/** The first instant of `now`'s Croatian month. */
const monthStart = async (now: Date) =>
  new Date(
    (await selectOne<{ start: Date }>(`SELECT timezone('Europe/Zagreb', date_trunc('month', timezone('Europe/Zagreb', CAST(:now AS timestamptz)))) AS start`, {
      now: now.toISOString(),
    }))!.start,
  );

/** The client figures read from the clients themselves, in cents and counts. */
async function readFromTheClients(now: Date) {
  const row = await selectOne<{ available: string; available_before: string; active: number; new_active: number; low: number; medium: number; high: number }>(
    `WITH advances_before AS (
       SELECT client_id, -sum(change) AS change FROM client_advance_changes
        WHERE month >= CAST(timezone('Europe/Zagreb', CAST(:start AS timestamptz)) AS date) GROUP BY client_id)
     SELECT coalesce(sum(greatest(coalesce(c.credit_limit, 0) - c.used_credit, 0)) FILTER (WHERE c.status = 'active'), 0) AS available,
            coalesce(sum(greatest(coalesce(c.credit_limit, 0) - (c.used_credit + coalesce(a.change, 0)), 0))
              FILTER (WHERE c.status = 'active' AND c.created_at < :start), 0) AS available_before,
            count(*) FILTER (WHERE c.status = 'active')::int AS active,
            count(*) FILTER (WHERE c.status = 'active' AND c.created_at >= :start)::int AS new_active,
            count(*) FILTER (WHERE c.risk_category = 'low')::int AS low,
            count(*) FILTER (WHERE c.risk_category = 'medium')::int AS medium,
            count(*) FILTER (WHERE c.risk_category = 'high')::int AS high
       FROM clients c LEFT JOIN advances_before a ON a.client_id = c.id`,
    { start: (await monthStart(now)).toISOString() },
  );
  const available = Number(row!.available);
  const before = Number(row!.available_before);
  return {
    availableBefore: Number(row!.available_before).toFixed(2),
    availableForFinancing: available,
    activeClients: row!.active,
    riskStats: { low: row!.low, medium: row!.medium, high: row!.high },
    newActiveClientsThisMonth: row!.new_active,
    availableForFinancingChange: before === 0 ? null : Math.round((1000 * (Math.round(available * 100) - Math.round(before * 100))) / Math.round(before * 100)) / 10,
  };
}

/** The first Croatian day of `now`'s month. */
const firstDayOf = async (now: Date) =>
  (await selectOne<{ day: string }>(`SELECT to_char(date_trunc('month', CAST(:now AS timestamptz) AT TIME ZONE 'Europe/Zagreb'), 'YYYY-MM-DD') AS day`, {
    now: now.toISOString(),
  }))!.day;

async function expectFiguresMatchTheClients(now = new Date()) {
  const metrics = await dashboardMetrics({ now });
  expect({
    availableBefore: Number(await monthStartAvailable(await firstDayOf(now))).toFixed(2),
    availableForFinancing: metrics.availableForFinancing,
    activeClients: metrics.activeClients,
    riskStats: metrics.riskStats,
    newActiveClientsThisMonth: metrics.notes.newActiveClientsThisMonth,
    availableForFinancingChange: metrics.notes.availableForFinancingChange,
  }).toEqual(await readFromTheClients(now));
}

const deltaRows = async () => (await selectOne<{ n: number }>('SELECT count(*)::int AS n FROM client_book_deltas'))!.n;

describe('maintained client totals', () => {
  it('equal the clients after inserts, changes, deletes, rollbacks and compaction', async () => {
    await expectFiguresMatchTheClients();
    const drawing = await insertClient({ name: 'Limit d.o.o.', creditLimit: '100000.00', usedCredit: '25000.10' });
    const overdrawn = await insertClient({ name: 'Prekoračenje d.o.o.', creditLimit: '1000.00', usedCredit: '1500.00' });
    await insertClient({ name: 'Na čekanju d.o.o.', status: 'pending', creditLimit: '50000.00' });
    // Many at once, created in earlier months too (the month-start comparison and "new this month" split by it).
    await execute(
      `INSERT INTO clients (company_name, oib, status, credit_limit, used_credit, risk_category, created_at)
       SELECT 'Skupni ' || g, lpad(g::text, 11, '7'), CASE WHEN g % 3 = 0 THEN 'inactive' ELSE 'active' END,
              1000.00 * g, 333.33 * (g % 4), (ARRAY['low', 'medium', 'high'])[1 + g % 3], now() - (g * interval '9 days')
         FROM generate_series(1, 30) g`,
    );
    await expectFiguresMatchTheClients();
    // A month ago and in three months (a dashboard opened at another time reads the same totals).
    await expectFiguresMatchTheClients(new Date(Date.now() - 31 * 86_400_000));
    await expectFiguresMatchTheClients(new Date(Date.now() + 92 * 86_400_000));

    // Used credit as the ledger moves it, the limit, the status and the risk, one client and in bulk.
    await execute(`UPDATE clients SET used_credit = used_credit + 12345.67 WHERE id = :id`, { id: drawing.id });
    await execute(`UPDATE clients SET credit_limit = NULL WHERE id = :id`, { id: overdrawn.id });
    await execute(`UPDATE clients SET status = 'inactive' WHERE company_name LIKE 'Skupni 1%'`);
    await execute(`UPDATE clients SET risk_score = NULL, risk_category = NULL WHERE company_name LIKE 'Skupni 2%'`);
    await execute(`UPDATE clients SET status = 'active', credit_limit = 7777.77 WHERE status = 'pending'`);
    await expectFiguresMatchTheClients();
    // An update that changes nothing the totals count adds no row.
    const rows = await deltaRows();
    await execute(`UPDATE clients SET phone = '+385 1 2345 678'`);
    expect(await deltaRows()).toBe(rows);

    // A rolled-back transaction leaves the totals as they were.
    const before = await dashboardMetrics();
    await expect(
      inTransaction(async (transaction) => {
        await execute(`UPDATE clients SET status = 'active', used_credit = 0`, {}, { transaction });
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');
    expect(await dashboardMetrics()).toEqual(before);

    await execute(`DELETE FROM clients WHERE company_name IN ('Skupni 5', 'Skupni 6', 'Skupni 7')`);
    await expectFiguresMatchTheClients();

    expect(await deltaRows()).toBeGreaterThan(5);
    await compactClientBookTotals();
    const months = (await selectOne<{ n: number }>(`SELECT count(DISTINCT date_trunc('month', created_at AT TIME ZONE 'Europe/Zagreb'))::int AS n FROM clients`))!.n;
    expect(await deltaRows()).toBeLessThanOrEqual(months);
    await expectFiguresMatchTheClients();
    await compactClientBookTotals();
    await expectFiguresMatchTheClients();

    // Emptied, the totals are zero again.
    await execute(`TRUNCATE clients CASCADE`);
    expect(await deltaRows()).toBe(0);
    await expectFiguresMatchTheClients();
  });

  it('stay exact while transactions write concurrently, with compaction between them', async () => {
    const clients = await Promise.all(Array.from({ length: 4 }, (_, n) => insertClient({ name: `Istodobni ${n} d.o.o.`, creditLimit: '10000.00' })));
    await Promise.all(
      Array.from({ length: 8 }, (_, n) =>
        inTransaction(async (transaction) => {
          const { id } = clients[n % clients.length];
          // As the ledger's writer does: the client row locked, then its used credit moved.
          await execute(`SELECT id FROM clients WHERE id = :id FOR UPDATE`, { id }, { transaction });
          await execute(`UPDATE clients SET used_credit = used_credit + :amount WHERE id = :id`, { id, amount: 1000 + n }, { transaction });
          await execute(`UPDATE clients SET risk_category = 'medium' WHERE id = :id`, { id }, { transaction });
        }),
      ),
    );
    await Promise.all([compactClientBookTotals(), insertClient({ name: 'Kasni d.o.o.', creditLimit: '5.00' }), compactClientBookTotals()]);
    await expectFiguresMatchTheClients();
  });

  describe('the month-start figure', () => {
    /** A change of a client's advances outstanding in the month of `bookedOn`, as the ledger's triggers write it. */
    const addChange = (clientId: string, bookedOn: string, change: string, transaction?: Transaction) =>
      execute(
        `INSERT INTO client_advance_changes AS t (client_id, month, change) VALUES (:clientId, CAST(date_trunc('month', CAST(:bookedOn AS date)) AS date), :change)
         ON CONFLICT (month, client_id) DO UPDATE SET change = t.change + excluded.change`,
        { clientId, bookedOn, change },
        { transaction },
      );
    const moveUsedCredit = (clientId: string, change: string, transaction?: Transaction) =>
      execute(`UPDATE clients SET used_credit = used_credit + CAST(:change AS numeric) WHERE id = :clientId`, { clientId, change }, { transaction });
    /** A posting: the advance change and the used credit, in either order, in one transaction. */
    const post = (clientId: string, bookedOn: string, change: string, changesFirst = true) =>
      inTransaction(async (transaction) => {
        if (!changesFirst) await moveUsedCredit(clientId, change, transaction);
        await addChange(clientId, bookedOn, change, transaction);
        if (changesFirst) await moveUsedCredit(clientId, change, transaction);
      });
    const day = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
    const monthsAgo = (months: number) => new Date(Date.now() - months * 31 * 86_400_000);
    const kept = async () =>
      (await selectOne<{ months: string[] }>(`SELECT coalesce(array_agg(to_char(month, 'YYYY-MM-DD') ORDER BY month), '{}') AS months FROM client_month_starts`))!.months;

    it('equals reading every client after postings in this month, later and earlier, and limit, status and delete changes', async () => {
      const old = `now() - interval '80 days'`;
      const clients = await Promise.all(
        ['Prvi', 'Drugi', 'Treći', 'Četvrti'].map((name, n) => insertClient({ name: `${name} d.o.o.`, creditLimit: `${(n + 1) * 10000}.00`, usedCredit: `${n * 4000}.00` })),
      );
      await execute(`UPDATE clients SET created_at = ${old}`);
      await expectFiguresMatchTheClients();
      expect(await kept()).toContain(await firstDayOf(new Date()));

      // Postings now, booked ahead and booked last month; both orders of the writer's two statements; over the limit.
      await post(clients[0].id, day(0), '2500.00');
      await post(clients[1].id, day(0), '-3000.00', false);
      await post(clients[2].id, day(40), '1234.56');
      await post(clients[3].id, day(-45), '777.77', false);
      await post(clients[0].id, day(0), '9000.00', false);
      await expectFiguresMatchTheClients();
      // Limits, status and a new client with changes of its own.
      await execute(`UPDATE clients SET credit_limit = 5000.00 WHERE id = :id`, { id: clients[0].id });
      await execute(`UPDATE clients SET status = 'inactive' WHERE id = :id`, { id: clients[1].id });
      const fresh = await insertClient({ name: 'Novi d.o.o.', creditLimit: '1000.00' });
      await post(fresh.id, day(0), '300.00');
      await expectFiguresMatchTheClients();
      // A client deleted with its changes (they go with it); a rollback changes nothing.
      await execute(`DELETE FROM agreements WHERE client_id = :id`, { id: clients[2].id });
      await execute(`DELETE FROM clients WHERE id = :id`, { id: clients[2].id });
      await expectFiguresMatchTheClients();
      const before = await monthStartAvailable(await firstDayOf(new Date()));
      await expect(
        inTransaction(async (transaction) => {
          await addChange(clients[3].id, day(0), '-50000.00', transaction);
          throw new Error('rollback');
        }),
      ).rejects.toThrow('rollback');
      expect(await monthStartAvailable(await firstDayOf(new Date()))).toBe(before);

      // Folded, and the months a dashboard asks for: this one and the one before are kept, an older one in passing.
      await compactClientBookTotals();
      await expectFiguresMatchTheClients();
      await expectFiguresMatchTheClients(monthsAgo(1));
      expect(await kept()).toEqual([await firstDayOf(monthsAgo(1)), await firstDayOf(new Date())].sort());
      await expectFiguresMatchTheClients(monthsAgo(3));
      await post(clients[0].id, day(0), '100.00');
      await expectFiguresMatchTheClients();
      await expectFiguresMatchTheClients(monthsAgo(3));

      // Truncating the changes lets the months go; the next read keeps them again.
      await execute('TRUNCATE client_advance_changes');
      expect(await kept()).toEqual([]);
      await expectFiguresMatchTheClients();
    });

    it('stays exact with postings, limit changes and a first read of the month at once', async () => {
      const clients = await Promise.all(Array.from({ length: 3 }, (_, n) => insertClient({ name: `Usporedni ${n} d.o.o.`, creditLimit: '20000.00', usedCredit: '15000.00' })));
      await execute(`UPDATE clients SET created_at = now() - interval '70 days'`);
      await Promise.all([
        // In postLedgerEntries' order (its writers on one client would deadlock in mixed orders, with or without the figure).
        ...Array.from({ length: 9 }, (_, n) => post(clients[n % 3].id, day(n % 2 ? 0 : 35), `${(n - 4) * 1111}.11`)),
        execute(`UPDATE clients SET credit_limit = credit_limit - 7500.00 WHERE id = :id`, { id: clients[1].id }),
        monthStartAvailable(await firstDayOf(new Date())),
        execute(`UPDATE clients SET status = 'inactive' WHERE id = :id`, { id: clients[2].id }),
        compactClientBookTotals(),
      ]);
      await expectFiguresMatchTheClients();
    });

    it('is read from the clients, without keeping the month, while a writer holds the clients', async () => {
      const client = await insertClient({ name: 'Zaključani d.o.o.', creditLimit: '9000.00' });
      await execute(`UPDATE clients SET created_at = now() - interval '70 days'`);
      await post(client.id, day(0), '1000.00');
      const firstDay = await firstDayOf(new Date());
      await execute('DELETE FROM client_month_starts');
      const { availableBefore } = await readFromTheClients(new Date());
      await inTransaction(async (transaction) => {
        await moveUsedCredit(client.id, '0.00', transaction);
        // The uncommitted writer keeps the SHARE lock away: the figure is read as it stands, and the month not kept.
        expect(Number(await monthStartAvailable(firstDay)).toFixed(2)).toBe(availableBefore);
        expect(await kept()).toEqual([]);
      });
      await expectFiguresMatchTheClients();
      expect(await kept()).toEqual([firstDay]);
    });
  });
});
