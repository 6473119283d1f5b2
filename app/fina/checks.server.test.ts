import { describe, expect, it } from 'vitest';
import { activityRows, apiFailure } from '../auth/test-helpers.server.ts';
import { execute, selectOne, selectRows } from '../db.server.ts';
import type { FinaAdapter } from '../integrations/fina.server.ts';
import { sandboxFina } from '../integrations/fina.server.ts';
import { sandboxOibs } from '../integrations/sandbox-rules.ts';
import { assessEntity } from '../risk/assessments.server.ts';
import { checkAllCustomers, checkCustomerAccount, recentFinaChecks } from './checks.server.ts';
import { createTestUser } from '../../tests/factories.ts';

async function customerWithOib(oib: string, name = `Kupac ${oib} d.o.o.`): Promise<string> {
  const { rows } = await execute<{ id: string }>(`INSERT INTO customers (company_name, oib) VALUES (:name, :oib) RETURNING id`, { name, oib });
  return rows[0].id;
}
const customer = (id: string) =>
  selectOne<{ account_blocked: boolean; blockage_reason: string | null; last_fina_check: Date | null; risk_score: number | null }>(
    `SELECT account_blocked, blockage_reason, last_fina_check, risk_score FROM customers WHERE id = :id`,
    { id },
  );
const tasksOf = (id: string) =>
  selectRows<{ type: string; priority: string; entity_type: string; status: string }>(`SELECT type, priority, entity_type, status FROM tasks WHERE entity_id = :id`, { id });

describe('FINA account checks', () => {
  it('a sandbox check that finds a blockage blocks the customer, lowers its risk score and opens one task', async () => {
    const user = await createTestUser({ role: 'user' });
    const [blockedOib] = sandboxOibs(true, 1);
    const id = await customerWithOib(blockedOib);
    // Scored before the check: not blocked.
    const before = await assessEntity({ entityType: 'customer', entityId: id, actor: null, reason: 'created' });

    const result = await checkCustomerAccount({ actor: user, customerId: id, ip: '10.2.2.2' });
    const expected = await sandboxFina.accountBlockage(blockedOib);
    expect(result).toMatchObject({ customerId: id, accountBlocked: true, blockageReason: expected.reason, change: 'blocked', taskId: expect.any(String) });
    const after = await customer(id);
    expect(after).toMatchObject({ account_blocked: true, blockage_reason: expected.reason, last_fina_check: expect.any(Date) });
    expect(after!.risk_score).toBeLessThan(before.score);
    expect(result.riskScore).toBe(after!.risk_score);
    expect(await tasksOf(id)).toEqual([{ type: 'customer_contact', priority: 'urgent', entity_type: 'customer', status: 'pending' }]);
    const [assessment] = await selectRows<{ fina_data: { accountBlocked: boolean } }>(
      `SELECT fina_data FROM risk_assessments WHERE entity_id = :id ORDER BY created_at DESC LIMIT 1`,
      { id },
    );
    expect(assessment.fina_data.accountBlocked).toBe(true);
    expect(await activityRows('fina_blockage_found', id)).toHaveLength(1);
    expect((await activityRows('fina_checked', id))[0]).toMatchObject({ user_id: user.id, ip_address: '10.2.2.2' });
    expect((await activityRows('risk_assessed', id)).map((row) => row.details.reason)).toEqual(['created', 'blockage']);

    // A second check: still blocked, no second task or assessment.
    const again = await checkCustomerAccount({ actor: user, customerId: id });
    expect(again.change).toBe('unchanged');
    expect(await tasksOf(id)).toHaveLength(1);
    expect(await activityRows('fina_blockage_found', id)).toHaveLength(1);
    expect(await activityRows('fina_checked', id)).toHaveLength(2);
    expect((await recentFinaChecks(5))[0]).toMatchObject({ customerId: id, accountBlocked: true });
  });

  it('an unblock logs fina_blockage_cleared; an unknown customer is 404; a FINA failure is 502 and changes nothing', async () => {
    const [clearOib] = sandboxOibs(false, 1);
    const id = await customerWithOib(clearOib);
    await execute(`UPDATE customers SET account_blocked = true, blockage_reason = 'stara blokada' WHERE id = :id`, { id });
    const result = await checkCustomerAccount({ actor: null, customerId: id });
    expect(result).toMatchObject({ accountBlocked: false, blockageReason: null, change: 'cleared', taskId: null });
    expect(await customer(id)).toMatchObject({ account_blocked: false, blockage_reason: null });
    expect((await activityRows('fina_blockage_cleared', id))[0].details).toMatchObject({ previousReason: 'stara blokada' });
    expect(await tasksOf(id)).toEqual([]);

    expect((await apiFailure(checkCustomerAccount({ actor: null, customerId: '00000000-0000-4000-8000-000000000009' }))).status).toBe(404);
    const down: FinaAdapter = { ...sandboxFina, accountBlockage: async () => Promise.reject(new Error('FINA down')) };
    const failure = await apiFailure(checkCustomerAccount({ actor: null, customerId: id, fina: down }));
    expect(failure.status).toBe(502);
    expect(failure.body.message).toContain('FINA down');
    expect(await activityRows('fina_checked', id)).toHaveLength(1);
  });

  it('the daily run checks every customer in batches and is idempotent', async () => {
    await execute(`DELETE FROM tasks`);
    const blocked = sandboxOibs(true, 3, 999);
    const clear = sandboxOibs(false, 4, 999);
    const ids = [];
    for (const oib of [...blocked, ...clear]) ids.push(await customerWithOib(oib));
    const total = Number((await selectOne<{ n: string }>(`SELECT count(*) AS n FROM customers`))?.n);
    const first = await checkAllCustomers({ batchSize: 2 });
    expect(first.checked).toBe(total);
    expect(first.failed).toBe(0);
    const unchecked = await selectOne<{ n: string }>(`SELECT count(*) AS n FROM customers WHERE last_fina_check IS NULL`);
    expect(Number(unchecked?.n)).toBe(0);
    for (const [index, id] of ids.entries()) expect((await customer(id))?.account_blocked).toBe(index < blocked.length);
    const tasksAfterFirst = (await selectRows(`SELECT id FROM tasks WHERE type = 'customer_contact'`)).length;
    expect(tasksAfterFirst).toBeGreaterThanOrEqual(blocked.length);
    const second = await checkAllCustomers({ batchSize: 3 });
    expect(second).toEqual({ checked: total, blocked: 0, cleared: 0, failed: 0 });
    expect(await selectRows(`SELECT id FROM tasks WHERE type = 'customer_contact'`)).toHaveLength(tasksAfterFirst);
  });
});
