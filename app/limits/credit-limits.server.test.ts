import { describe, expect, it } from 'vitest';
import { activityRows, apiFailure, getRequest, invalidInput, jsonRequest, signedInCookie } from '../auth/test-helpers.server.ts';
import { execute, selectOne, selectRows } from '../db.server.ts';
import { action as approveAction } from '../routes/api.credit-limits.$id.approve.ts';
import { action as rejectAction } from '../routes/api.credit-limits.$id.reject.ts';
import { action as creditLimitsAction, loader as creditLimitsLoader } from '../routes/api.credit-limits.ts';
import { approveCreditLimit, clientLimitsOverview, listCreditLimitRequests, rejectCreditLimit, requestCreditLimit } from './credit-limits.server.ts';
import { expireCreditLimits, openRenewalTasks } from './limit-expiry.server.ts';
import { addDays, zagrebToday } from './dates.ts';
import { FIXED_REJECTION_REASON } from './schemas.ts';
import { actorOf, createTestUser, insertClient } from '../../tests/factories.ts';

const ctx = (request: Request, params: Record<string, string> = {}) => ({ request, params, context: { clientIp: '127.0.0.1' } });

const clientLimit = async (id: string) => (await selectOne<{ credit_limit: string | null }>(`SELECT credit_limit FROM clients WHERE id = :id`, { id }))!.credit_limit;
const requestRow = (id: string) =>
  selectOne<{ status: string; approved_limit: string | null; decided_by: string | null; decided_at: Date | null; rejection_reason: string | null }>(
    `SELECT status, approved_limit, decided_by, decided_at, rejection_reason FROM credit_limit_requests WHERE id = :id`,
    { id },
  );

async function staff() {
  const [user, manager, otherManager] = await Promise.all([createTestUser({ role: 'user' }), createTestUser({ role: 'manager' }), createTestUser({ role: 'manager' })]);
  return { user: actorOf(user), manager: actorOf(manager), otherManager: actorOf(otherManager) };
}

const today = zagrebToday();

describe('requesting a credit limit', () => {
  it('records the previous limit, the exact amount, the default validity of 365 days and a credit_limit_requested row', async () => {
    const { user } = await staff();
    const { id: clientId } = await insertClient({ creditLimit: '50000.00' });
    const request = await requestCreditLimit({ actor: user, input: { clientId, creditLimit: '123456.78', reason: '  Sezonski porast prodaje. ' }, ip: '10.0.0.9' });
    expect(request).toMatchObject({
      clientId,
      previousLimit: 50000,
      requestedLimit: 123456.78,
      approvedLimit: null,
      reason: 'Sezonski porast prodaje.',
      requestedById: user.id,
      requestedBy: 'Test User',
      validUntil: addDays(today, 365),
      status: 'pending',
      decidedAt: null,
    });
    const stored = await selectOne<{ requested_limit: string; previous_limit: string }>(`SELECT requested_limit, previous_limit FROM credit_limit_requests WHERE id = :id`, {
      id: request.id,
    });
    expect(stored).toEqual({ requested_limit: '123456.78', previous_limit: '50000.00' });
    expect(await clientLimit(clientId)).toBe('50000.00');
    const [logged] = await activityRows('credit_limit_requested', request.id);
    expect(logged).toMatchObject({ user_id: user.id, ip_address: '10.0.0.9', details: { clientId, previousLimit: '50000.00', requestedLimit: '123456.78' } });
  });

  it('refuses missing fields with the spec messages, an unknown client, a past validity and a third decimal; creates nothing', async () => {
    const { user } = await staff();
    const { id: clientId } = await insertClient();
    const missing = await apiFailure(requestCreditLimit({ actor: user, input: invalidInput({}) }));
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toMatchObject({
      clientId: ['Client is required'],
      creditLimit: ['Credit limit is required'],
      reason: ['Reason is required'],
    });
    const blank = await apiFailure(requestCreditLimit({ actor: user, input: { clientId: '', creditLimit: '', reason: '   ' } }));
    expect(Object.keys(blank.body.errors ?? {}).sort()).toEqual(['clientId', 'creditLimit', 'reason']);
    const cents = await apiFailure(requestCreditLimit({ actor: user, input: { clientId, creditLimit: '100.001', reason: 'x' } }));
    expect(cents.body.errors).toEqual({ creditLimit: ['Credit limit must be a positive amount with at most 2 decimals'] });
    const zero = await apiFailure(requestCreditLimit({ actor: user, input: { clientId, creditLimit: 0, reason: 'x' } }));
    expect(zero.status).toBe(400);
    const past = await apiFailure(requestCreditLimit({ actor: user, input: { clientId, creditLimit: 1000, reason: 'x', validUntil: addDays(today, -1) } }));
    expect(past.body.errors).toEqual({ validUntil: ['Valid until cannot be in the past'] });
    const badDate = await apiFailure(requestCreditLimit({ actor: user, input: { clientId, creditLimit: 1000, reason: 'x', validUntil: '2026-02-30' } }));
    expect(badDate.status).toBe(400);
    const unknown = await apiFailure(requestCreditLimit({ actor: user, input: { clientId: '00000000-0000-4000-8000-000000000001', creditLimit: 1000, reason: 'x' } }));
    expect(unknown).toMatchObject({ status: 400, body: { errors: { clientId: ['Client not found'] } } });
    expect((await selectOne<{ n: number }>(`SELECT count(*)::int AS n FROM credit_limit_requests WHERE client_id = :clientId`, { clientId }))!.n).toBe(0);
  });
});

describe('deciding a credit limit request (four eyes)', () => {
  it('a manager other than the requester approves: the client gets the requested limit, to the cent', async () => {
    const { user, manager } = await staff();
    const { id: clientId } = await insertClient({ creditLimit: '20000.00', usedCredit: '15000.10' });
    const request = await requestCreditLimit({ actor: user, input: { clientId, creditLimit: 75000.55, reason: 'Novi kupac' } });
    const approved = await approveCreditLimit({ actor: manager, id: request.id, ip: '10.0.0.2' });
    expect(approved).toMatchObject({ status: 'approved', previousLimit: 20000, requestedLimit: 75000.55, approvedLimit: 75000.55, decidedById: manager.id });
    expect(approved.decidedAt).not.toBeNull();
    expect(await clientLimit(clientId)).toBe('75000.55');
    const [logged] = await activityRows('credit_limit_approved', request.id);
    expect(logged).toMatchObject({ user_id: manager.id, details: { previousLimit: '20000.00', approvedLimit: '75000.55' } });

    const overview = await clientLimitsOverview({
      q: (await selectOne<{ company_name: string }>(`SELECT company_name FROM clients WHERE id = :id`, { id: clientId }))!.company_name,
    });
    expect(overview.clients).toEqual([
      {
        id: clientId,
        partyType: 'client',
        companyName: expect.any(String),
        creditLimit: 75000.55,
        usedCredit: 15000.1,
        availableCredit: 60000.45,
        utilisation: 20,
        validUntil: request.validUntil,
      },
    ]);
  });

  it('an explicit approvedLimit is what the client gets', async () => {
    const { user, manager } = await staff();
    const { id: clientId } = await insertClient();
    const request = await requestCreditLimit({ actor: user, input: { clientId, creditLimit: 100000, reason: 'x' } });
    expect((await approveCreditLimit({ actor: manager, id: request.id, approvedLimit: '80000.10' })).approvedLimit).toBe(80000.1);
    expect(await clientLimit(clientId)).toBe('80000.10');
  });

  it('the requester may not approve or reject their own request (403) and nothing changes', async () => {
    const { manager } = await staff();
    const { id: clientId } = await insertClient({ creditLimit: '10000.00' });
    const request = await requestCreditLimit({ actor: manager, input: { clientId, creditLimit: 90000, reason: 'x' } });
    const approve = await apiFailure(approveCreditLimit({ actor: manager, id: request.id }));
    expect(approve).toMatchObject({ status: 403, body: { message: 'You cannot decide your own credit limit request' } });
    expect((await apiFailure(rejectCreditLimit({ actor: manager, id: request.id, reason: FIXED_REJECTION_REASON }))).status).toBe(403);
    expect(await requestRow(request.id)).toMatchObject({ status: 'pending', approved_limit: null, decided_by: null });
    expect(await clientLimit(clientId)).toBe('10000.00');
    expect(await activityRows('credit_limit_approved', request.id)).toEqual([]);
  });

  it('a user (no manager role) may not decide (403)', async () => {
    const { user } = await staff();
    const other = actorOf(await createTestUser({ role: 'user' }));
    const { id: clientId } = await insertClient();
    const request = await requestCreditLimit({ actor: other, input: { clientId, creditLimit: 1000, reason: 'x' } });
    expect((await apiFailure(approveCreditLimit({ actor: user, id: request.id }))).status).toBe(403);
    expect((await apiFailure(rejectCreditLimit({ actor: user, id: request.id, reason: 'x' }))).status).toBe(403);
    expect((await requestRow(request.id))!.status).toBe('pending');
    expect(await clientLimit(clientId)).toBeNull();
  });

  it('reject stores the reason given and leaves the limit alone', async () => {
    const { user, manager } = await staff();
    const { id: clientId } = await insertClient({ creditLimit: '30000.00' });
    const request = await requestCreditLimit({ actor: user, input: { clientId, creditLimit: 60000, reason: 'x' } });
    const rejected = await rejectCreditLimit({ actor: manager, id: request.id, reason: FIXED_REJECTION_REASON });
    expect(rejected).toMatchObject({ status: 'rejected', rejectionReason: 'Odbijeno od strane administratora', decidedById: manager.id, approvedLimit: null });
    expect(await clientLimit(clientId)).toBe('30000.00');
    expect((await activityRows('credit_limit_rejected', request.id))[0].details).toMatchObject({ reason: FIXED_REJECTION_REASON });
    expect((await apiFailure(rejectCreditLimit({ actor: manager, id: request.id, reason: '' }))).status).toBe(400);
  });

  it('approve and reject only from pending (409); nothing changes', async () => {
    const { user, manager, otherManager } = await staff();
    const { id: clientId } = await insertClient();
    const approvedOne = await requestCreditLimit({ actor: user, input: { clientId, creditLimit: 40000, reason: 'x' } });
    await approveCreditLimit({ actor: manager, id: approvedOne.id });
    const rejectedOne = await requestCreditLimit({ actor: user, input: { clientId, creditLimit: 90000, reason: 'y' } });
    await rejectCreditLimit({ actor: manager, id: rejectedOne.id, reason: FIXED_REJECTION_REASON });
    const before = await selectRows(`SELECT * FROM credit_limit_requests ORDER BY id`);

    for (const id of [approvedOne.id, rejectedOne.id]) {
      expect((await apiFailure(approveCreditLimit({ actor: otherManager, id, approvedLimit: 1 }))).status).toBe(409);
      expect((await apiFailure(rejectCreditLimit({ actor: otherManager, id, reason: 'z' }))).status).toBe(409);
    }
    expect(await selectRows(`SELECT * FROM credit_limit_requests ORDER BY id`)).toEqual(before);
    expect(await clientLimit(clientId)).toBe('40000.00');
    expect((await apiFailure(approveCreditLimit({ actor: manager, id: '00000000-0000-4000-8000-000000000009' }))).status).toBe(404);
  });

  it('two managers deciding at once: exactly one wins, the other gets 409', async () => {
    const { user, manager, otherManager } = await staff();
    const { id: clientId } = await insertClient();
    const request = await requestCreditLimit({ actor: user, input: { clientId, creditLimit: 55000, reason: 'x' } });
    const outcomes = await Promise.allSettled([
      approveCreditLimit({ actor: manager, id: request.id }),
      rejectCreditLimit({ actor: otherManager, id: request.id, reason: FIXED_REJECTION_REASON }),
    ]);
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    const refused = outcomes.find((outcome) => outcome.status === 'rejected') as PromiseRejectedResult;
    expect((refused.reason as Response).status).toBe(409);
    const decided = (await requestRow(request.id))!;
    expect(await clientLimit(clientId)).toBe(decided.status === 'approved' ? '55000.00' : null);
  });
});

describe('the list and its tab counts', () => {
  it('filters by status and client search; the counts equal SQL counts of the same search', async () => {
    const { user, manager } = await staff();
    const { id: alpha } = await insertClient({ name: 'Alfa Limiti d.o.o.' });
    const { id: beta } = await insertClient({ name: 'Beta Limiti d.o.o.' });
    const ids = [];
    for (const [clientId, amount] of [
      [alpha, 1000],
      [alpha, 2000],
      [beta, 3000],
      [beta, 4000],
      [beta, 5000],
    ] as const) {
      ids.push((await requestCreditLimit({ actor: user, input: { clientId, creditLimit: amount, reason: 'x' } })).id);
    }
    await approveCreditLimit({ actor: manager, id: ids[0] });
    await rejectCreditLimit({ actor: manager, id: ids[2], reason: FIXED_REJECTION_REASON });

    // Other tests of this file share the database: everything here is narrowed to these two clients by the search.
    const all = await listCreditLimitRequests({ q: 'limiti d.o.o' });
    const sql = await selectOne<Record<string, number>>(
      `SELECT count(*) FILTER (WHERE r.status = 'pending')::int AS pending, count(*) FILTER (WHERE r.status = 'approved')::int AS approved,
              count(*) FILTER (WHERE r.status = 'rejected')::int AS rejected, count(*) FILTER (WHERE r.status = 'expired')::int AS expired, count(*)::int AS "all"
         FROM credit_limit_requests r JOIN clients c ON c.id = r.client_id WHERE c.company_name ILIKE '%Limiti d.o.o%'`,
    );
    expect(all.counts).toEqual(sql);
    expect((await listCreditLimitRequests()).counts.all).toBe((await selectOne<{ n: number }>(`SELECT count(*)::int AS n FROM credit_limit_requests`))!.n);
    expect(all.counts).toEqual({ pending: 3, approved: 1, rejected: 1, expired: 0, all: 5 });
    expect(all.requests.map((request) => request.id)).toEqual([...ids].reverse());

    const pending = await listCreditLimitRequests({ q: 'Limiti d.o.o', status: 'pending', limit: 2 });
    expect(pending.total).toBe(3);
    expect(pending.requests.map((request) => request.requestedLimit)).toEqual([5000, 4000]);
    const betaOnly = await listCreditLimitRequests({ q: 'beta limiti', status: 'all' });
    expect(betaOnly.counts).toEqual({ pending: 2, approved: 0, rejected: 1, expired: 0, all: 3 });
    expect(betaOnly.requests.every((request) => request.clientName === 'Beta Limiti d.o.o.')).toBe(true);
    expect((await apiFailure(listCreditLimitRequests({ status: 'nonsense' }))).status).toBe(400);
  });
});

describe('expiry', () => {
  it('falls back to the limit before the approval, once however often it runs', async () => {
    const { user, manager } = await staff();
    const { id: clientId } = await insertClient({ creditLimit: '50000.00' });
    const request = await requestCreditLimit({ actor: user, input: { clientId, creditLimit: 80000, reason: 'x', validUntil: addDays(today, 10) } });
    await approveCreditLimit({ actor: manager, id: request.id });
    expect(await expireCreditLimits(addDays(today, 10))).toEqual({ expired: 0 }); // valid through its last day
    expect(await expireCreditLimits(addDays(today, 11))).toEqual({ expired: 1 });
    expect((await requestRow(request.id))!.status).toBe('expired');
    expect(await clientLimit(clientId)).toBe('50000.00');
    expect(await expireCreditLimits(addDays(today, 11))).toEqual({ expired: 0 });
    const logged = await activityRows('credit_limit_expired', request.id);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ user_id: null, details: { limitBefore: '80000.00', limitAfter: '50000.00', expiredLimit: '80000.00' } });
  });

  it('falls back to the latest other approval that is still valid', async () => {
    const { user, manager } = await staff();
    const { id: clientId } = await insertClient();
    const long = await requestCreditLimit({ actor: user, input: { clientId, creditLimit: 100000, reason: 'x', validUntil: addDays(today, 30) } });
    await approveCreditLimit({ actor: manager, id: long.id });
    const short = await requestCreditLimit({ actor: user, input: { clientId, creditLimit: 150000, reason: 'y', validUntil: addDays(today, 10) } });
    await approveCreditLimit({ actor: manager, id: short.id });
    expect(await clientLimit(clientId)).toBe('150000.00');
    expect(await expireCreditLimits(addDays(today, 11))).toEqual({ expired: 1 });
    expect(await clientLimit(clientId)).toBe('100000.00');
    expect(await expireCreditLimits(addDays(today, 31))).toEqual({ expired: 1 });
    // Its previous limit (null) is what it had before: no limit.
    expect(await clientLimit(clientId)).toBeNull();
  });

  it('does not revive a limit whose own approval has lapsed too', async () => {
    const { user, manager } = await staff();
    const { id: clientId } = await insertClient({ creditLimit: '20000.00' });
    const first = await requestCreditLimit({ actor: user, input: { clientId, creditLimit: 100000, reason: 'x', validUntil: addDays(today, 10) } });
    await approveCreditLimit({ actor: manager, id: first.id });
    const second = await requestCreditLimit({ actor: user, input: { clientId, creditLimit: 150000, reason: 'y', validUntil: addDays(today, 20) } });
    await approveCreditLimit({ actor: manager, id: second.id });
    expect(second.previousLimit).toBe(100000);
    // The first lapses while the second still runs: nothing changes for the client.
    expect(await expireCreditLimits(addDays(today, 11))).toEqual({ expired: 1 });
    expect(await clientLimit(clientId)).toBe('150000.00');
    // When the second lapses, 100,000 (granted by the lapsed first) is not restored: the limit before both is.
    expect(await expireCreditLimits(addDays(today, 21))).toEqual({ expired: 1 });
    expect(await clientLimit(clientId)).toBe('20000.00');
  });

  it('two lapses of one client on the same day end at the limit before both', async () => {
    const { user, manager } = await staff();
    const { id: clientId } = await insertClient({ creditLimit: '5000.00' });
    for (const [amount, days] of [
      [10000, 5],
      [20000, 6],
    ] as const) {
      const request = await requestCreditLimit({ actor: user, input: { clientId, creditLimit: amount, reason: 'x', validUntil: addDays(today, days) } });
      await approveCreditLimit({ actor: manager, id: request.id });
    }
    expect(await expireCreditLimits(addDays(today, 7))).toEqual({ expired: 2 });
    expect(await clientLimit(clientId)).toBe('5000.00');
  });
});

describe('renewal tasks', () => {
  it('opens one high-priority limit_approval task 30 days before expiry, never twice', async () => {
    const { user, manager } = await staff();
    const { id: clientId } = await insertClient({ name: 'Obnova d.o.o.' });
    const soon = await requestCreditLimit({ actor: user, input: { clientId, creditLimit: 70000, reason: 'x', validUntil: addDays(today, 40) } });
    await approveCreditLimit({ actor: manager, id: soon.id });
    const pending = await requestCreditLimit({ actor: user, input: { clientId, creditLimit: 90000, reason: 'y', validUntil: addDays(today, 5) } });

    expect(await openRenewalTasks(addDays(today, 9))).toEqual({ opened: 0 }); // 31 days ahead
    expect(await openRenewalTasks(addDays(today, 10))).toEqual({ opened: 1 });
    expect(await openRenewalTasks(addDays(today, 10))).toEqual({ opened: 0 });
    const tasks = await selectRows<{ id: string; type: string; priority: string; status: string; entity_type: string; entity_id: string; due: string; title: string }>(
      `SELECT id, type, priority, status, entity_type, entity_id, to_char(due_date AT TIME ZONE 'Europe/Zagreb', 'YYYY-MM-DD') AS due, title FROM tasks`,
    );
    expect(tasks).toEqual([
      {
        id: expect.any(String),
        type: 'limit_approval',
        priority: 'high',
        status: 'pending',
        entity_type: 'credit_limit_request',
        entity_id: soon.id,
        due: addDays(today, 40),
        title: 'Obnova kreditnog limita: Obnova d.o.o.',
      },
    ]);
    expect(await activityRows('renewal_task_opened', tasks[0].id)).toHaveLength(1);

    // A worked task is not reopened the next morning; the pending request never gets one.
    await execute(`UPDATE tasks SET status = 'completed', completed_at = now() WHERE id = :id`, { id: tasks[0].id });
    expect(await openRenewalTasks(addDays(today, 11))).toEqual({ opened: 0 });
    expect(pending.status).toBe('pending');
    expect((await selectOne<{ n: number }>(`SELECT count(*)::int AS n FROM tasks`))!.n).toBe(1);
  });

  it('skips a limit that has already been renewed by a later-running approval', async () => {
    const { user, manager } = await staff();
    const { id: clientId } = await insertClient();
    const old = await requestCreditLimit({ actor: user, input: { clientId, creditLimit: 70000, reason: 'x', validUntil: addDays(today, 20) } });
    await approveCreditLimit({ actor: manager, id: old.id });
    const renewal = await requestCreditLimit({ actor: user, input: { clientId, creditLimit: 80000, reason: 'obnova' } });
    await approveCreditLimit({ actor: manager, id: renewal.id });
    expect(await openRenewalTasks(today)).toEqual({ opened: 0 });
  });
});

describe('the /api/credit-limits routes', () => {
  it('POST 201, GET with X-Total-Count and ?status, PUT approve/reject with four eyes, 409 and 403', async () => {
    const { user, manager } = await staff();
    const [userCookie, managerCookie] = await Promise.all([signedInCookie(user.id), signedInCookie(manager.id)]);
    const { id: clientId } = await insertClient({ creditLimit: '1000.00', name: 'Rute API d.o.o.' });

    const created = await creditLimitsAction(
      ctx(jsonRequest('/api/credit-limits', { clientId, creditLimit: 25000.5, reason: 'API zahtjev', validUntil: addDays(today, 100) }, userCookie)),
    );
    expect(created.status).toBe(201);
    const body = (await created.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ clientId, previousLimit: 1000, requestedLimit: 25000.5, status: 'pending', validUntil: addDays(today, 100), requestedBy: 'Test User' });
    for (const field of ['id', 'clientName', 'approvedLimit', 'reason', 'requestedAt', 'decidedBy', 'decidedAt', 'rejectionReason']) expect(body).toHaveProperty(field);
    const id = String(body.id);

    const invalid = await apiFailure(creditLimitsAction(ctx(jsonRequest('/api/credit-limits', {}, userCookie))));
    expect(invalid.status).toBe(400);
    expect(Object.keys(invalid.body.errors ?? {}).sort()).toEqual(['clientId', 'creditLimit', 'reason']);

    const list = await creditLimitsLoader(ctx(getRequest('/api/credit-limits?status=pending&limit=1&q=Rute%20API', userCookie)));
    expect(list.headers.get('X-Total-Count')).toBe('1');
    expect(((await list.json()) as Array<{ id: string }>).map((request) => request.id)).toEqual([id]);

    const asUser = await apiFailure(approveAction(ctx(jsonRequest(`/api/credit-limits/${id}/approve`, {}, userCookie, 'PUT'), { id })));
    expect(asUser.status).toBe(403);
    const approved = await approveAction(ctx(jsonRequest(`/api/credit-limits/${id}/approve`, { approvedLimit: 25000.5 }, managerCookie, 'PUT'), { id }));
    expect(approved.status).toBe(200);
    expect(await approved.json()).toMatchObject({ status: 'approved', approvedLimit: 25000.5 });
    expect(await clientLimit(clientId)).toBe('25000.50');
    const again = await apiFailure(rejectAction(ctx(jsonRequest(`/api/credit-limits/${id}/reject`, { reason: 'x' }, managerCookie, 'PUT'), { id })));
    expect(again.status).toBe(409);

    const own = await requestCreditLimit({ actor: manager, input: { clientId, creditLimit: 1, reason: 'x' } });
    const ownReject = await apiFailure(rejectAction(ctx(jsonRequest(`/api/credit-limits/${own.id}/reject`, { reason: 'x' }, managerCookie, 'PUT'), { id: own.id })));
    expect(ownReject.status).toBe(403);
    const missingReason = await apiFailure(rejectAction(ctx(jsonRequest(`/api/credit-limits/${own.id}/reject`, {}, userCookie, 'PUT'), { id: own.id })));
    expect(missingReason.status).toBe(403);
    expect((await apiFailure(approveAction(ctx(jsonRequest('/api/credit-limits/nope/approve', {}, managerCookie, 'PUT'), { id: 'nope' })))).status).toBe(404);
  });
});
