import { describe, expect, it } from 'vitest';
import { activityRows, apiFailure, getRequest, jsonRequest, signedInCookie } from '../auth/test-helpers.server.ts';
import { execute, selectOne } from '../db.server.ts';
import { action as approveAction } from '../routes/api.credit-limits.$id.approve.ts';
import { action as creditLimitsAction, loader as creditLimitsLoader } from '../routes/api.credit-limits.ts';
import { loader as customerLoader } from '../routes/api.customers.$customerId.ts';
import { loader as customersLoader } from '../routes/api.customers.ts';
import {
  approveCreditLimit,
  clientLimitsOverview,
  customerChoices,
  customerLimitRequests,
  listCreditLimitRequests,
  rejectCreditLimit,
  requestCreditLimit,
} from './credit-limits.server.ts';
import { expireCreditLimits } from './limit-expiry.server.ts';
import { addDays, zagrebToday } from './dates.ts';
import { FIXED_REJECTION_REASON } from './schemas.ts';
import { actorOf, createTestUser, insertClient, insertCustomer } from '../../tests/factories.ts';

/** Debtor (customer) limits: the same request flow as the clients' (docs/lifecycle.md#credit-limits), setting customers.credit_limit. */

const ctx = (request: Request, params: Record<string, string> = {}) => ({ request, params, context: { clientIp: '127.0.0.1' } });
const today = zagrebToday();

const debtorLimit = async (id: string) => (await selectOne<{ credit_limit: string | null }>(`SELECT credit_limit FROM customers WHERE id = :id`, { id }))!.credit_limit;
const clientLimit = async (id: string) => (await selectOne<{ credit_limit: string | null }>(`SELECT credit_limit FROM clients WHERE id = :id`, { id }))!.credit_limit;
const requestCount = async () => (await selectOne<{ n: number }>(`SELECT count(*)::int AS n FROM credit_limit_requests`))!.n;

async function staff() {
  const [user, manager, otherManager] = await Promise.all([createTestUser({ role: 'user' }), createTestUser({ role: 'manager' }), createTestUser({ role: 'manager' })]);
  return { user: actorOf(user), manager: actorOf(manager), otherManager: actorOf(otherManager) };
}

/** A debtor with a limit already approved (set as the approval would, so previousLimit has something to record). */
async function debtor(limit: string | null = null, name?: string) {
  return insertCustomer({ name, creditLimit: limit });
}

describe("requesting a debtor's limit", () => {
  it('records the debtor, the previous limit, the default validity and a credit_limit_requested row naming the customer', async () => {
    const { user } = await staff();
    const customer = await debtor('40000.00', 'Dužnik Zahtjev d.d.');
    const request = await requestCreditLimit({ actor: user, input: { customerId: customer.id, creditLimit: '250000.10', reason: 'Veliki kupac više klijenata.' }, ip: '10.0.0.7' });
    expect(request).toMatchObject({
      partyType: 'customer',
      clientId: null,
      clientName: null,
      customerId: customer.id,
      partyName: 'Dužnik Zahtjev d.d.',
      previousLimit: 40000,
      requestedLimit: 250000.1,
      status: 'pending',
      validUntil: addDays(today, 365),
      requestedById: user.id,
    });
    const stored = await selectOne<{ client_id: string | null; customer_id: string; previous_limit: string }>(
      `SELECT client_id, customer_id, previous_limit FROM credit_limit_requests WHERE id = :id`,
      { id: request.id },
    );
    expect(stored).toEqual({ client_id: null, customer_id: customer.id, previous_limit: '40000.00' });
    expect(await debtorLimit(customer.id)).toBe('40000.00');
    const [logged] = await activityRows('credit_limit_requested', request.id);
    expect(logged).toMatchObject({
      user_id: user.id,
      ip_address: '10.0.0.7',
      details: { customerId: customer.id, customerName: 'Dužnik Zahtjev d.d.', previousLimit: '40000.00', requestedLimit: '250000.10' },
    });
    expect(logged.details).not.toHaveProperty('clientId');
  });

  it('refuses an unknown customer, both ids and neither (400) and creates nothing', async () => {
    const { user } = await staff();
    const { id: clientId } = await insertClient();
    const customer = await debtor();
    const before = await requestCount();
    const unknown = await apiFailure(requestCreditLimit({ actor: user, input: { customerId: '00000000-0000-4000-8000-000000000001', creditLimit: 1000, reason: 'x' } }));
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors).toEqual({ customerId: ['Debtor not found'] });
    const both = await apiFailure(requestCreditLimit({ actor: user, input: { clientId, customerId: customer.id, creditLimit: 1000, reason: 'x' } }));
    expect(both.status).toBe(400);
    expect(both.body.errors).toEqual({ customerId: ['Give either a client or a debtor, not both'] });
    const neither = await apiFailure(requestCreditLimit({ actor: user, input: { creditLimit: 1000, reason: 'x' } }));
    expect(neither.status).toBe(400);
    expect(neither.body.errors).toEqual({ clientId: ['Client is required'] });
    // The form says which select counts: a debtor's form without a debtor asks for one.
    const noDebtor = await apiFailure(requestCreditLimit({ actor: user, input: { partyType: 'customer', clientId, creditLimit: 1000, reason: 'x' } }));
    expect(noDebtor.body.errors).toEqual({ customerId: ['Debtor is required'] });
    const badId = await apiFailure(requestCreditLimit({ actor: user, input: { customerId: 'x', creditLimit: 1000, reason: 'x' } }));
    expect(badId.body.errors).toEqual({ customerId: ['Debtor is required'] });
    expect(await requestCount()).toBe(before);
  });

  it("the form's partyType drops the other select's choice", async () => {
    const { user } = await staff();
    const { id: clientId } = await insertClient();
    const customer = await debtor();
    const request = await requestCreditLimit({ actor: user, input: { partyType: 'customer', clientId, customerId: customer.id, creditLimit: 5000, reason: 'x' } });
    expect(request).toMatchObject({ partyType: 'customer', customerId: customer.id, clientId: null });
  });
});

describe("deciding a debtor's limit (four eyes)", () => {
  it('another manager approves: customers.credit_limit is the approved amount, the client side untouched', async () => {
    const { user, manager } = await staff();
    const customer = await debtor('10000.00');
    const { id: clientId } = await insertClient({ creditLimit: '7000.00' });
    const request = await requestCreditLimit({ actor: user, input: { customerId: customer.id, creditLimit: 90000, reason: 'x' } });
    const approved = await approveCreditLimit({ actor: manager, id: request.id, approvedLimit: '85000.55', ip: '10.0.0.3' });
    expect(approved).toMatchObject({ status: 'approved', approvedLimit: 85000.55, previousLimit: 10000, decidedById: manager.id, partyType: 'customer' });
    expect(await debtorLimit(customer.id)).toBe('85000.55');
    expect(await clientLimit(clientId)).toBe('7000.00');
    const [logged] = await activityRows('credit_limit_approved', request.id);
    expect(logged).toMatchObject({ user_id: manager.id, details: { customerId: customer.id, previousLimit: '10000.00', approvedLimit: '85000.55' } });
  });

  it('the requester may not decide their own request (403); nothing changes', async () => {
    const { manager } = await staff();
    const customer = await debtor('20000.00');
    const request = await requestCreditLimit({ actor: manager, input: { customerId: customer.id, creditLimit: 30000, reason: 'x' } });
    const approve = await apiFailure(approveCreditLimit({ actor: manager, id: request.id }));
    expect(approve.status).toBe(403);
    expect(approve.body.message).toBe('You cannot decide your own credit limit request');
    expect((await apiFailure(rejectCreditLimit({ actor: manager, id: request.id, reason: FIXED_REJECTION_REASON }))).status).toBe(403);
    expect(await debtorLimit(customer.id)).toBe('20000.00');
    expect((await customerLimitRequests(customer.id))[0]).toMatchObject({ id: request.id, status: 'pending' });
  });

  it('reject keeps the limit and stores the reason; a decided request cannot be decided again (409)', async () => {
    const { user, manager, otherManager } = await staff();
    const customer = await debtor('15000.00');
    const request = await requestCreditLimit({ actor: user, input: { customerId: customer.id, creditLimit: 60000, reason: 'x' } });
    const rejected = await rejectCreditLimit({ actor: manager, id: request.id, reason: FIXED_REJECTION_REASON });
    expect(rejected).toMatchObject({ status: 'rejected', rejectionReason: FIXED_REJECTION_REASON, customerId: customer.id });
    expect(await debtorLimit(customer.id)).toBe('15000.00');
    expect((await activityRows('credit_limit_rejected', request.id))[0].details).toMatchObject({ customerId: customer.id, reason: FIXED_REJECTION_REASON });
    expect((await apiFailure(approveCreditLimit({ actor: otherManager, id: request.id }))).status).toBe(409);
  });
});

describe("a debtor's limit lapses", () => {
  it('falls back to the limit before the approval, once, with a credit_limit_expired row naming the customer', async () => {
    const { user, manager } = await staff();
    const customer = await debtor('50000.00');
    const request = await requestCreditLimit({ actor: user, input: { customerId: customer.id, creditLimit: 80000, reason: 'x', validUntil: addDays(today, 10) } });
    await approveCreditLimit({ actor: manager, id: request.id });
    expect(await debtorLimit(customer.id)).toBe('80000.00');
    expect(await expireCreditLimits(addDays(today, 10))).toEqual({ expired: 0 });
    expect((await expireCreditLimits(addDays(today, 11))).expired).toBeGreaterThanOrEqual(1);
    expect(await debtorLimit(customer.id)).toBe('50000.00');
    expect((await customerLimitRequests(customer.id))[0].status).toBe('expired');
    const [logged] = await activityRows('credit_limit_expired', request.id);
    expect(logged.details).toMatchObject({ customerId: customer.id, expiredLimit: '80000.00', limitBefore: '80000.00', limitAfter: '50000.00' });
    expect((await expireCreditLimits(addDays(today, 11))).expired).toBe(0);
  });

  it('an approval for a client and one for a debtor lapse each on its own party', async () => {
    const { user, manager } = await staff();
    const customer = await debtor();
    const { id: clientId } = await insertClient({ creditLimit: '1000.00' });
    const forDebtor = await requestCreditLimit({ actor: user, input: { customerId: customer.id, creditLimit: 3000, reason: 'x', validUntil: addDays(today, 3) } });
    const forClient = await requestCreditLimit({ actor: user, input: { clientId, creditLimit: 2000, reason: 'x', validUntil: addDays(today, 30) } });
    await approveCreditLimit({ actor: manager, id: forDebtor.id });
    await approveCreditLimit({ actor: manager, id: forClient.id });
    await expireCreditLimits(addDays(today, 4));
    expect(await debtorLimit(customer.id)).toBeNull();
    expect(await clientLimit(clientId)).toBe('2000.00');
  });
});

describe('the list of both kinds', () => {
  it('returns client and debtor requests with partyType and the party name, filters by partyType and counts per kind', async () => {
    const { user } = await staff();
    const stamp = `Vrsta${Date.now()}`;
    const { id: clientId } = await insertClient({ name: `${stamp} Klijent d.o.o.` });
    const customer = await debtor(null, `${stamp} Dužnik d.d.`);
    const forClient = await requestCreditLimit({ actor: user, input: { clientId, creditLimit: 1000, reason: 'x' } });
    const forDebtor = await requestCreditLimit({ actor: user, input: { customerId: customer.id, creditLimit: 2000, reason: 'y' } });

    const both = await listCreditLimitRequests({ q: stamp });
    expect(both.requests.map((request) => [request.id, request.partyType, request.partyName])).toEqual([
      [forDebtor.id, 'customer', `${stamp} Dužnik d.d.`],
      [forClient.id, 'client', `${stamp} Klijent d.o.o.`],
    ]);
    expect(both.counts).toMatchObject({ pending: 2, all: 2 });
    const debtors = await listCreditLimitRequests({ q: stamp, partyType: 'customer' });
    expect(debtors.requests.map((request) => request.id)).toEqual([forDebtor.id]);
    expect(debtors.counts).toMatchObject({ pending: 1, all: 1 });
    expect(debtors.total).toBe(1);
    const clients = await listCreditLimitRequests({ q: stamp, partyType: 'client', status: 'pending' });
    expect(clients.requests.map((request) => request.id)).toEqual([forClient.id]);
    expect((await apiFailure(listCreditLimitRequests({ partyType: 'debtor' }))).status).toBe(400);
  });

  it("the grid and the form's debtor choices", async () => {
    const stamp = `Mreza${Date.now()}`;
    const limited = await debtor('12000.00', `${stamp} A d.d.`);
    await execute(`UPDATE customers SET used_credit = 3000 WHERE id = :id`, { id: limited.id });
    const unlimited = await debtor(null, `${stamp} B d.d.`);
    const grid = await clientLimitsOverview({ q: stamp, partyType: 'customer' });
    expect(grid.clients).toEqual([
      { id: limited.id, partyType: 'customer', companyName: `${stamp} A d.d.`, creditLimit: 12000, usedCredit: 3000, availableCredit: 9000, utilisation: 25, validUntil: null },
    ]);
    const found = await customerChoices({ q: stamp });
    expect(found.customers.map((choice) => choice.id)).toEqual([limited.id, unlimited.id]);
    expect(found.customers[0].creditLimit).toBe(12000);
    // The chosen debtor stays listed whatever the search.
    expect((await customerChoices({ q: 'nothing-matches-this', chosenId: unlimited.id })).customers.map((choice) => choice.id)).toEqual([unlimited.id]);
  });
});

describe('the API', () => {
  it('POST with customerId 201, both ids 400, GET ?partyType, PUT approve by another manager; /api/customers shows the limit', async () => {
    const { user, manager } = await staff();
    const [userCookie, managerCookie] = await Promise.all([signedInCookie(user.id), signedInCookie(manager.id)]);
    const customer = await debtor(null, `ApiDužnik${Date.now()} d.d.`);
    await execute(`UPDATE customers SET used_credit = 1250.40 WHERE id = :id`, { id: customer.id });
    const { id: clientId } = await insertClient();

    const created = await creditLimitsAction(ctx(jsonRequest('/api/credit-limits', { customerId: customer.id, creditLimit: 30000, reason: 'API dužnik' }, userCookie)));
    expect(created.status).toBe(201);
    const body = (await created.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ partyType: 'customer', customerId: customer.id, clientId: null, partyName: customer.name, previousLimit: null, requestedLimit: 30000 });
    const both = await apiFailure(creditLimitsAction(ctx(jsonRequest('/api/credit-limits', { clientId, customerId: customer.id, creditLimit: 1, reason: 'x' }, userCookie))));
    expect(both.status).toBe(400);

    const list = await creditLimitsLoader(ctx(getRequest(`/api/credit-limits?partyType=customer&q=${encodeURIComponent(customer.name)}`, userCookie)));
    expect(list.headers.get('X-Total-Count')).toBe('1');
    expect(((await list.json()) as Array<{ id: string }>).map((request) => request.id)).toEqual([body.id]);
    const none = await creditLimitsLoader(ctx(getRequest(`/api/credit-limits?partyType=client&q=${encodeURIComponent(customer.name)}`, userCookie)));
    expect(none.headers.get('X-Total-Count')).toBe('0');
    expect((await apiFailure(creditLimitsLoader(ctx(getRequest('/api/credit-limits?partyType=x', userCookie))))).status).toBe(400);

    const before = (await (await customerLoader(ctx(getRequest(`/api/customers/${customer.id}`, userCookie), { customerId: customer.id }))).json()) as Record<string, unknown>;
    expect(before).toMatchObject({ creditLimit: null, usedCredit: 1250.4, availableCredit: null });
    const id = String(body.id);
    expect((await approveAction(ctx(jsonRequest(`/api/credit-limits/${id}/approve`, {}, managerCookie, 'PUT'), { id }))).status).toBe(200);
    const after = (await (await customerLoader(ctx(getRequest(`/api/customers/${customer.id}`, userCookie), { customerId: customer.id }))).json()) as Record<string, unknown>;
    expect(after).toMatchObject({ creditLimit: 30000, usedCredit: 1250.4, availableCredit: 28749.6 });
    const listed = (await (await customersLoader(ctx(getRequest(`/api/customers?q=${encodeURIComponent(customer.name)}`, userCookie)))).json()) as Array<Record<string, unknown>>;
    expect(listed).toEqual([expect.objectContaining({ id: customer.id, creditLimit: 30000, usedCredit: 1250.4, availableCredit: 28749.6 })]);
  });
});
