import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { getRequest, signedInCookie } from '../auth/test-helpers.server.ts';
import { logActivity } from '../activity-log.server.ts';
import { execute, inTransaction, selectOne } from '../db.server.ts';
import { loader } from '../routes/api.activity-logs.ts';
import { activityStatus } from './display.ts';
import { listActivityLogs } from './activity-logs.server.ts';
import { createTestUser } from '../../tests/factories.ts';

async function seedLogs() {
  const alice = await createTestUser();
  const bob = await createTestUser();
  const entity = randomUUID();
  await inTransaction(async (transaction) => {
    await logActivity({ action: 'client_created', userId: alice.id, entityType: 'client', entityId: entity, ipAddress: '10.0.0.1', details: { a: 1 } }, transaction);
    await logActivity({ action: 'invoice_verified', userId: bob.id, entityType: 'invoice', entityId: randomUUID() }, transaction);
    await logActivity({ action: 'client_updated', userId: bob.id, entityType: 'client', entityId: entity }, transaction);
  });
  // An old row: the log is append-only, so it is inserted with its date.
  await execute(`INSERT INTO activity_logs (action, entity_type, entity_id, user_id, created_at) VALUES ('task_created', 'task', :id, :user, '2024-03-10T10:00:00Z')`, {
    id: randomUUID(),
    user: alice.id,
  });
  return { alice, bob, entity, cookie: await signedInCookie(alice.id) };
}

async function get(path: string, cookie: string) {
  const response = await loader({ request: getRequest(path, cookie), params: {}, context: {} }).catch((error: Response) => error);
  return { status: response.status, total: Number(response.headers.get('X-Total-Count')), body: await response.json() };
}

describe('GET /api/activity-logs', () => {
  it('lists newest first with the user name, and filters by user, action, entity and dates; total = count(*) of the filter', async () => {
    const { alice, bob, entity, cookie } = await seedLogs();
    const all = await get('/api/activity-logs', cookie);
    expect(all.status).toBe(200);
    expect(all.total).toBe((await selectOne<{ n: number }>('SELECT count(*)::int AS n FROM activity_logs'))!.n);
    expect(all.body[0]).toMatchObject({ action: 'client_updated', userId: bob.id, userName: 'Test User', entityId: entity });

    const byAlice = await get(`/api/activity-logs?userId=${alice.id}`, cookie);
    expect(byAlice.body.map((row: { action: string }) => row.action)).toEqual(['client_created', 'task_created']);
    expect(byAlice.total).toBe(2);
    expect(byAlice.body[0]).toMatchObject({ ipAddress: '10.0.0.1', details: { a: 1 }, entityType: 'client' });

    expect((await get(`/api/activity-logs?action=invoice_verified&userId=${bob.id}`, cookie)).total).toBe(1);
    expect((await get(`/api/activity-logs?entityType=client&entityId=${entity}`, cookie)).total).toBe(2);
    expect((await get(`/api/activity-logs?userId=${alice.id}&from=2024-03-10&to=2024-03-10`, cookie)).total).toBe(1);
    expect((await get(`/api/activity-logs?userId=${alice.id}&to=2024-03-09`, cookie)).total).toBe(0);
    expect((await get(`/api/activity-logs?userId=${alice.id}&from=2024-03-11`, cookie)).total).toBe(1);

    const page = await get(`/api/activity-logs?userId=${alice.id}&limit=1&offset=1`, cookie);
    expect(page.body.map((row: { action: string }) => row.action)).toEqual(['task_created']);
    expect(page.total).toBe(2);
  });

  it('refuses a bad filter with 400 and a visitor with 401', async () => {
    const { cookie } = await seedLogs();
    const bad = await get('/api/activity-logs?userId=nope&from=yesterday', cookie);
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['from', 'userId']);
    expect((await get('/api/activity-logs', '')).status).toBe(401);
  });

  it('listActivityLogs pages through the same filter', async () => {
    const { bob } = await seedLogs();
    const { logs, total } = await listActivityLogs({ userId: bob.id }, { limit: 1 });
    expect(total).toBe(2);
    expect(logs).toHaveLength(1);
  });
});

describe('activity status labels', () => {
  it('maps actions to Odobreno / U obradi / Završeno / Zahtijeva pažnju', () => {
    expect(activityStatus('invoice_verified')).toBe('approved');
    expect(activityStatus('credit_limit_approved')).toBe('approved');
    expect(activityStatus('client_created')).toBe('processing');
    expect(activityStatus('payment_confirmed')).toBe('completed');
    expect(activityStatus('task_completed')).toBe('completed');
    expect(activityStatus('invoice_rejected')).toBe('attention');
    expect(activityStatus('customer_account_blocked')).toBe('attention');
    expect(activityStatus('invoice_charged_back')).toBe('attention');
    expect(activityStatus('invoice_written_off')).toBe('attention');
  });
});
