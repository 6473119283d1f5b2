import { describe, expect, it } from 'vitest';
import { activityRows, apiFailure, getRequest, jsonRequest, signedInCookie } from '../auth/test-helpers.server.ts';
import { execute, selectOne } from '../db.server.ts';
import { loader as customerDetailLoader } from '../routes/api.customers.$customerId.ts';
import { action as customersAction, loader as customersLoader } from '../routes/api.customers.ts';
import { croatianIban } from '../utils/validation.ts';
import { createCustomer, getCustomer, listCustomers, updateCustomer } from './customers.server.ts';
import { actorOf, createTestUser, newOib } from '../../tests/factories.ts';
import { PARTY_FIELD_REFUSALS } from '../../tests/support/party-refusals.ts';

const customerCount = async () => (await selectOne<{ n: number }>('SELECT count(*)::int AS n FROM customers'))!.n;
const ctx = (request: Request) => ({ request, params: {}, context: { clientIp: '127.0.0.1' } });

describe('customers', () => {
  it('creates a customer (not blocked, never checked) and logs customer_created', async () => {
    const user = await createTestUser();
    const customer = await createCustomer({
      actor: actorOf(user),
      input: { companyName: 'Kupac d.d.', oib: newOib(), iban: croatianIban('2402006', '1100000001'), postalCode: '21000' },
      ip: '10.0.0.1',
    });
    expect(customer).toMatchObject({
      companyName: 'Kupac d.d.',
      country: 'Croatia',
      accountBlocked: false,
      blockageReason: null,
      lastFinaCheck: null,
      riskScore: 85,
      riskCategory: 'low',
    });
    expect(customer).not.toHaveProperty('contactPerson');
    const [log] = await activityRows('customer_created', customer.id);
    expect(log).toMatchObject({ user_id: user.id, ip_address: '10.0.0.1', details: { companyName: 'Kupac d.d.' } });
  });

  it.each(PARTY_FIELD_REFUSALS.filter(([field]) => field !== 'contactPerson'))('refuses %s (%j) with 400 and stores nothing', async (field, patch, message) => {
    const user = await createTestUser();
    const before = await customerCount();
    const failure = await apiFailure(createCustomer({ actor: actorOf(user), input: { companyName: 'OK d.o.o.', oib: newOib(), ...patch } }));
    expect(failure.status).toBe(400);
    expect(failure.body.errors?.[field]).toEqual([message]);
    expect(await customerCount()).toBe(before);
  });

  it('refuses a duplicate OIB with 409; a client with the same OIB does not count', async () => {
    const user = await createTestUser();
    const oib = newOib();
    await createCustomer({ actor: actorOf(user), input: { companyName: 'Prvi', oib } });
    const failure = await apiFailure(createCustomer({ actor: actorOf(user), input: { companyName: 'Drugi', oib } }));
    expect(failure).toMatchObject({ status: 409, body: { message: 'A customer with this OIB already exists', errors: { oib: ['A customer with this OIB already exists'] } } });
    expect((await selectOne<{ n: number }>('SELECT count(*)::int AS n FROM customers WHERE oib = :oib', { oib }))!.n).toBe(1);
  });

  it('lists with ?q and ?accountBlocked, counting in SQL; updates log old→new', async () => {
    const user = await createTestUser();
    const blocked = await createCustomer({ actor: actorOf(user), input: { companyName: 'Blokirani Kupac d.o.o.', oib: newOib('7100000000') } });
    await execute(`UPDATE customers SET account_blocked = true, blockage_reason = 'Ovrha' WHERE id = :id`, { id: blocked.id });
    await createCustomer({ actor: actorOf(user), input: { companyName: 'Slobodni Kupac d.o.o.', oib: newOib('7200000000'), email: 'racuni@slobodni.hr' } });

    expect((await listCustomers({ q: 'kupac d.o.o' })).total).toBe(2);
    expect((await listCustomers({ q: 'kupac d.o.o', accountBlocked: 'true' })).customers.map((c) => c.id)).toEqual([blocked.id]);
    expect((await listCustomers({ q: 'kupac d.o.o', accountBlocked: 'false' })).total).toBe(1);
    expect((await listCustomers({ q: '71' })).customers.map((c) => c.companyName)).toEqual(['Blokirani Kupac d.o.o.']);
    expect((await listCustomers({ q: 'slobodni.hr' })).total).toBe(1);
    expect((await apiFailure(listCustomers({ accountBlocked: 'maybe' }))).status).toBe(400);
    const all = await listCustomers({ limit: 1 });
    expect(all.total).toBe(await customerCount());
    expect(all.customers).toHaveLength(1);

    await updateCustomer({ actor: actorOf(user), id: blocked.id, input: { city: 'Zadar', email: 'info@blok.hr' } });
    const [log] = await activityRows('customer_updated', blocked.id);
    expect(log.details).toMatchObject({ changes: { city: { old: null, new: 'Zadar' }, email: { old: null, new: 'info@blok.hr' } } });
    const detail = await getCustomer(blocked.id);
    expect(detail).toMatchObject({ accountBlocked: true, blockageReason: 'Ovrha', city: 'Zadar', invoices: [], invoiceCount: 0 });
    expect(detail.activity.map((row) => row.action)).toEqual(['customer_updated', 'risk_assessed', 'customer_created']);
    expect(detail.riskHistory).toHaveLength(1);
  });

  it('serves the API: 201 on POST, X-Total-Count on GET, 404 for an unknown id', async () => {
    const user = await createTestUser();
    const cookie = await signedInCookie(user.id);
    const created = await customersAction(ctx(jsonRequest('/api/customers', { companyName: 'API Kupac', oib: newOib(), contactPerson: 'ignored' }, cookie)));
    expect(created.status).toBe(201);
    const body = await created.json();
    expect(body).toMatchObject({ companyName: 'API Kupac', accountBlocked: false });
    const list = await customersLoader(ctx(getRequest('/api/customers?q=API%20Kupac', cookie)));
    expect(list.headers.get('X-Total-Count')).toBe('1');
    const missing = '00000000-0000-4000-8000-00000000abcd';
    expect((await apiFailure(customerDetailLoader({ ...ctx(getRequest(`/api/customers/${missing}`, cookie)), params: { customerId: missing } }))).status).toBe(404);
  });
});
