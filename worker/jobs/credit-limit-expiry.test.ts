import { randomInt } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { execute, selectOne, selectRows } from '../../app/db.server.ts';
import { approveCreditLimit, requestCreditLimit } from '../../app/limits/credit-limits.server.ts';
import { addDays, zagrebToday } from '../../app/limits/dates.ts';
import { queues } from '../../app/jobs/queues.server.ts';
import { jobs } from './index.ts';
import { handler, queue } from './credit-limit-expiry.ts';
import { createTestUser } from '../../tests/factories.ts';

const context = () => {
  const lines: string[] = [];
  return { lines, context: { worker: { workerId: 'w', hostname: 'h', pid: 1, startedAt: new Date() }, log: { info: (line: string) => lines.push(line), error: () => {} } } };
};

describe('credit-limit-expiry', () => {
  it('is a daily Croatian-morning job registered with the worker', () => {
    expect(queues.find((definition) => definition.name === queue)?.schedule).toEqual({ cron: '15 5 * * *', tz: 'Europe/Zagreb' });
    expect(jobs.filter((job) => job.queue === queue)).toHaveLength(1);
  });

  it('expires lapsed limits and opens renewal tasks, and a second run changes nothing', async () => {
    const [user, manager] = await Promise.all([createTestUser({ role: 'user' }), createTestUser({ role: 'manager' })]);
    const actor = (row: { id: string; role: 'user' | 'manager' | 'admin' | 'super_admin' }) => ({ id: row.id, role: row.role });
    const { rows } = await execute<{ id: string }>(`INSERT INTO clients (company_name, oib, status, credit_limit) VALUES ('Istek d.o.o.', :oib, 'active', 40000) RETURNING id`, {
      oib: String(randomInt(10_000_000_000, 99_999_999_999)),
    });
    const clientId = rows[0].id;
    const today = zagrebToday();
    const lapsed = await requestCreditLimit({ actor: actor(user), input: { clientId, creditLimit: 60000, reason: 'x', validUntil: today } });
    await approveCreditLimit({ actor: actor(manager), id: lapsed.id });
    // It ran out yesterday (the API cannot create that, so the row is moved back).
    await execute(`UPDATE credit_limit_requests SET valid_until = CAST(:day AS date) WHERE id = :id`, { day: addDays(today, -1), id: lapsed.id });
    const expiring = await requestCreditLimit({ actor: actor(user), input: { clientId, creditLimit: 50000, reason: 'y', validUntil: addDays(today, 20) } });
    await approveCreditLimit({ actor: actor(manager), id: expiring.id });

    const first = context();
    await handler([], first.context);
    expect(first.lines).toEqual(['credit-limit-expiry: 1 limit(s) expired, 1 renewal task(s) opened']);
    expect((await selectOne<{ status: string }>(`SELECT status FROM credit_limit_requests WHERE id = :id`, { id: lapsed.id }))!.status).toBe('expired');
    // The other approval still runs, so the client keeps it.
    expect((await selectOne<{ credit_limit: string }>(`SELECT credit_limit FROM clients WHERE id = :id`, { id: clientId }))!.credit_limit).toBe('50000.00');

    const second = context();
    await handler([], second.context);
    expect(second.lines).toEqual([]);
    expect(await selectRows(`SELECT id FROM tasks WHERE entity_id = :id`, { id: expiring.id })).toHaveLength(1);
  });
});
