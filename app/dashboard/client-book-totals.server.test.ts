import { describe, expect, it } from 'vitest';
import { execute, inTransaction, selectOne } from '../db.server.ts';
import { compactClientBookTotals, dashboardMetrics } from './metrics.server.ts';
import { insertClient } from '../../tests/factories.ts';

/**
 * The dashboard's client figures come from totals the database keeps
 * (db/migrations/2026.11.28T11.00.00.client-book-totals.ts). They must equal
 * the figures read from every client row, whatever statements changed the
 * clients: inserts single and in bulk, status, limit, used credit and risk
 * changes, deletes, rolled-back transactions, compaction and writers at once.
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
    availableForFinancing: available,
    activeClients: row!.active,
    riskStats: { low: row!.low, medium: row!.medium, high: row!.high },
    newActiveClientsThisMonth: row!.new_active,
    availableForFinancingChange: before === 0 ? null : Math.round((1000 * (Math.round(available * 100) - Math.round(before * 100))) / Math.round(before * 100)) / 10,
  };
}

async function expectFiguresMatchTheClients(now = new Date()) {
  const metrics = await dashboardMetrics({ now });
  expect({
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
});
