import { QueryTypes } from 'sequelize';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadBook, bookSize } from '../bench/load-book.ts';
import { getSequelize } from './connection.ts';
import { LEDGER_BACKFILL_STATEMENTS } from './ledger-backfill.ts';
import { migrateDown, migrateUp } from './migrate.ts';

/**
 * The ledger backfill of a book written before the ledger (db/ledger-backfill.ts),
 * on the bench's generated book at a small scale (bench/load-book.ts runs it
 * after loading), checked against sums computed independently from the
 * invoices, payments and payouts.
 */
const sequelize = getSequelize();
const select = <T extends object>(sql: string) => sequelize.query<T>(sql, { type: QueryTypes.SELECT });
const backfill = () =>
  sequelize.transaction(async (transaction) => {
    for (const { sql } of LEDGER_BACKFILL_STATEMENTS) await sequelize.query(sql, { transaction });
  });
const entryCount = async () => (await select<{ n: number }>('SELECT count(*)::int AS n FROM client_ledger'))[0].n;

let loadedEntries = 0;

beforeAll(async () => {
  await loadBook(sequelize, { ...bookSize(0.002), clients: 20, customers: 40 }, () => {});
  // Reserve releases (the bench writes no payouts): one for some paid invoices, a cancelled one that must not count.
  await sequelize.query(`
    INSERT INTO payouts (client_id, invoice_id, kind, amount, iban, status, created_at)
    SELECT i.client_id, i.id, 'reserve_release', i.amount - i.factor_amount - i.factor_fee - round(i.factor_fee * 0.25, 2), c.iban,
           CASE WHEN row_number() OVER (ORDER BY i.id) % 7 = 0 THEN 'cancelled' ELSE 'paid' END, i.paid_at
      FROM invoices i JOIN clients c ON c.id = i.client_id
     WHERE i.status = 'paid' AND c.iban IS NOT NULL`);
  // The load ran the backfill before these payouts existed: an invoice that has entries is not written again,
  // so take the ledger back to nothing the way a fresh upgrade would find it (the trigger forbids deleting).
  await sequelize.query(`ALTER TABLE client_ledger DISABLE TRIGGER client_ledger_append_only; DELETE FROM client_ledger;
                         ALTER TABLE client_ledger ENABLE TRIGGER client_ledger_append_only`);
  await backfill();
  loadedEntries = await entryCount();
}, 120_000);

describe('the ledger backfill', () => {
  it('writes per kind exactly what the invoices, payments and payouts say', async () => {
    const [expected] = await select<Record<string, string>>(`
      SELECT (SELECT coalesce(sum(factor_amount), 0) FROM invoices WHERE status IN ('financed', 'paid')) AS advance,
             (SELECT coalesce(sum(factor_fee), 0) FROM invoices WHERE status IN ('financed', 'paid')) AS fee,
             (SELECT coalesce(sum(round(factor_fee * 0.25, 2)), 0) FROM invoices WHERE status IN ('financed', 'paid')) AS fee_vat,
             (SELECT coalesce(-sum(p.amount), 0) FROM payments p JOIN invoices i ON i.id = p.invoice_id
               WHERE p.status = 'confirmed' AND i.status IN ('financed', 'paid')) AS collection,
             (SELECT coalesce(sum(o.amount), 0) FROM payouts o WHERE o.kind = 'reserve_release' AND o.status <> 'cancelled') AS reserve_release`);
    const actual = await select<{ kind: string; total: string }>('SELECT kind, sum(amount) AS total FROM client_ledger GROUP BY kind');
    const byKind = Object.fromEntries(actual.map((row) => [row.kind, row.total]));
    for (const kind of ['advance', 'fee', 'fee_vat', 'collection', 'reserve_release']) expect([kind, byKind[kind]]).toEqual([kind, expected[kind]]);
    expect(Number(expected.reserve_release)).toBeGreaterThan(0);
    // A settled invoice (collected in full; the bench writes payments for some paid invoices only) whose reserve was
    // released balances to zero.
    const settled = `SELECT i.id FROM invoices i JOIN payments p ON p.invoice_id = i.id AND p.status = 'confirmed'
                      WHERE EXISTS (SELECT 1 FROM client_ledger r WHERE r.invoice_id = i.id AND r.kind = 'reserve_release')
                      GROUP BY i.id HAVING sum(p.amount) = i.amount`;
    const balances = await select<{ balance: string }>(`SELECT sum(l.amount) AS balance FROM client_ledger l WHERE l.invoice_id IN (${settled}) GROUP BY l.invoice_id`);
    expect(balances.length).toBeGreaterThan(10);
    expect(balances.filter((row) => Number(row.balance) !== 0)).toEqual([]);
  });

  it("sets each client's and customer's used credit to its ledger sum", async () => {
    const mismatches = await select(`
      WITH o AS (SELECT i.client_id, i.customer_id, greatest(0, i.factor_amount - coalesce(sum(p.amount), 0)) AS open
                   FROM invoices i LEFT JOIN payments p ON p.invoice_id = i.id AND p.status = 'confirmed'
                  WHERE i.status IN ('financed', 'paid') GROUP BY i.id)
      SELECT 'client' AS party, c.id FROM clients c LEFT JOIN o ON o.client_id = c.id GROUP BY c.id HAVING c.used_credit <> coalesce(sum(o.open), 0)
      UNION ALL
      SELECT 'customer', u.id FROM customers u LEFT JOIN o ON o.customer_id = u.id GROUP BY u.id HAVING u.used_credit <> coalesce(sum(o.open), 0)`);
    expect(mismatches).toEqual([]);
    const [{ used }] = await select<{ used: string }>('SELECT sum(used_credit) AS used FROM clients');
    expect(Number(used)).toBeGreaterThan(0);
  });

  it('writes nothing the second time, and skips an invoice that already has entries', async () => {
    expect(loadedEntries).toBeGreaterThan(0);
    await backfill();
    expect(await entryCount()).toBe(loadedEntries);
    const [{ invoices }] = await select<{ invoices: number }>(`SELECT count(DISTINCT invoice_id)::int AS invoices FROM client_ledger`);
    const [{ financed }] = await select<{ financed: number }>(`SELECT count(*)::int AS financed FROM invoices WHERE status IN ('financed', 'paid')`);
    expect(invoices).toBe(financed);
  });
});

describe('an install upgraded with a book', () => {
  it('gets the same ledger from the factoring-contract migration', async () => {
    const before = await select<{ kind: string; total: string; entries: number }>(
      'SELECT kind, sum(amount) AS total, count(*)::int AS entries FROM client_ledger GROUP BY kind ORDER BY kind',
    );
    const usedBefore = await select<{ id: string; used_credit: string }>('SELECT id, used_credit FROM clients ORDER BY id');
    // Back to the schema before the ledger (its tables dropped), and the used credit as the old rule had it.
    await migrateDown(sequelize, { to: '2026.11.27T01.00.00.factoring-contract' });
    expect(await select(`SELECT 1 FROM pg_tables WHERE tablename = 'client_ledger'`)).toEqual([]);
    await sequelize.query('UPDATE clients SET used_credit = 0');
    await migrateUp(sequelize);
    const after = await select<{ kind: string; total: string; entries: number }>(
      'SELECT kind, sum(amount) AS total, count(*)::int AS entries FROM client_ledger GROUP BY kind ORDER BY kind',
    );
    expect(after).toEqual(before);
    expect(await select<{ id: string; used_credit: string }>('SELECT id, used_credit FROM clients ORDER BY id')).toEqual(usedBefore);
  }, 120_000);
});
