import { describe, expect, it } from 'vitest';
import { activityRows, apiFailure, getRequest, invalidInput, jsonRequest, signedInCookie } from '../auth/test-helpers.server.ts';
import type { Transaction } from 'sequelize';
import { execute, inTransaction, selectOne, selectRows } from '../db.server.ts';
import { loader as clientDetailLoader, action as clientDetailAction } from '../routes/api.clients.$clientId.ts';
import { action as clientsAction, loader as clientsLoader } from '../routes/api.clients.ts';
import { croatianIban } from '../utils/validation.ts';
import { createClient, getClient, listClients, updateClient, utilisationPercent } from './clients.server.ts';
import { actorOf, createTestUser, newOib } from '../../tests/factories.ts';
import { PARTY_FIELD_REFUSALS } from '../../tests/support/party-refusals.ts';

const VALID_IBAN = croatianIban('2360000', '1101234567');
const clientCount = async () => (await selectOne<{ n: number }>('SELECT count(*)::int AS n FROM clients'))!.n;

describe('creating a client', () => {
  it('stores every field, starts staff clients pending their KYC review and logs client_created in the same transaction', async () => {
    const user = await createTestUser();
    const oib = newOib();
    const client = await createClient({
      actor: actorOf(user),
      ip: '10.0.0.7',
      input: {
        companyName: '  Jadran Trgovina d.o.o. ',
        oib,
        address: 'Ilica 1',
        city: 'Zagreb',
        postalCode: '10000',
        contactPerson: 'Ana Anić',
        email: 'Info@Jadran.HR',
        phone: '+385 1 234 5678',
        iban: VALID_IBAN.replace(/(.{4})/g, '$1 ').toLowerCase(),
        registrationNumber: '080123456',
      },
    });
    expect(client).toMatchObject({
      companyName: 'Jadran Trgovina d.o.o.',
      oib,
      country: 'Croatia',
      email: 'info@jadran.hr',
      iban: VALID_IBAN,
      status: 'pending',
      onboardingStatus: 'pending',
      creditLimit: null,
      usedCredit: 0,
      // The first risk assessment runs on creation: a new company with no book scores 85 (low).
      riskScore: 85,
      riskCategory: 'low',
    });
    expect(client.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Date(client.createdAt).toISOString()).toBe(client.createdAt);
    const [log] = await activityRows('client_created', client.id);
    expect(log).toMatchObject({ user_id: user.id, ip_address: '10.0.0.7', details: { companyName: 'Jadran Trgovina d.o.o.', oib } });
  });

  it.each(PARTY_FIELD_REFUSALS)('refuses %s (%j) with 400 and stores nothing', async (field, patch, message) => {
    const user = await createTestUser();
    const before = await clientCount();
    const input = { companyName: 'Valid d.o.o.', oib: newOib(), ...patch };
    const failure = await apiFailure(createClient({ actor: actorOf(user), input: invalidInput(input) }));
    expect(failure.status).toBe(400);
    expect(failure.body.errors?.[field]).toEqual([message]);
    expect(await clientCount()).toBe(before);
  });

  it('refuses a duplicate OIB with 409 and leaves no second row or log', async () => {
    const user = await createTestUser();
    const oib = newOib();
    await createClient({ actor: actorOf(user), input: { companyName: 'Prvi d.o.o.', oib } });
    const before = await clientCount();
    const failure = await apiFailure(createClient({ actor: actorOf(user), input: { companyName: 'Drugi d.o.o.', oib } }));
    expect(failure).toMatchObject({
      status: 409,
      body: { message: 'A client with this OIB already exists', errors: { oib: ['A client with this OIB already exists'] } },
    });
    expect(await clientCount()).toBe(before);
    expect((await activityRows('client_created')).filter((row) => row.details.oib === oib)).toHaveLength(1);
  });

  it("creates a wizard applicant inside the caller's transaction: pending, no user, and gone when the caller rolls back", async () => {
    const oib = newOib();
    const before = await clientCount();
    await expect(
      inTransaction(async (transaction) => {
        const client = await createClient({ actor: null, input: { companyName: 'Prijava d.o.o.', oib, status: 'pending' }, ip: '1.2.3.4' }, { transaction });
        expect(client).toMatchObject({ status: 'pending', onboardingStatus: 'in_progress' });
        const [log] = await activityRowsIn(transaction, client.id);
        expect(log).toMatchObject({ user_id: null, details: { source: 'registration' } });
        throw new Error('a later step of the wizard failed');
      }),
    ).rejects.toThrow('a later step');
    expect(await clientCount()).toBe(before);
    expect(await selectOne('SELECT 1 FROM clients WHERE oib = :oib', { oib })).toBeNull();
  });

  it('forbids a caller without create:client', async () => {
    const failure = await apiFailure(createClient({ actor: { id: 'x', role: 'user', isActive: false }, input: { companyName: 'X', oib: newOib() } }));
    expect(failure.status).toBe(403);
  });
});

async function activityRowsIn(transaction: Transaction, entityId: string) {
  return selectRows<{ user_id: string | null; details: Record<string, unknown> }>(
    `SELECT user_id, details FROM activity_logs WHERE action = 'client_created' AND entity_id = :entityId`,
    { entityId },
    { transaction },
  );
}

describe('listing clients', () => {
  it('searches name, OIB prefix and email, filters status, pages newest first with SQL counts', async () => {
    const user = await createTestUser();
    const actor = actorOf(user);
    const names = ['Alfa Search d.o.o.', 'Beta Search d.o.o.', 'Gama Other d.o.o.', 'Delta Search j.d.o.o.'];
    const created = [];
    for (const [index, companyName] of names.entries()) {
      created.push(
        await createClient({
          actor,
          input: { companyName, oib: newOib(`9${index}00000000`), email: `kontakt${index}@firma-${index}.hr`, status: index === 3 ? 'inactive' : undefined },
        }),
      );
    }
    const search = await listClients({ q: 'search' });
    expect(search.clients.map((c) => c.companyName)).toEqual(['Delta Search j.d.o.o.', 'Beta Search d.o.o.', 'Alfa Search d.o.o.']);
    expect(search.total).toBe(3);
    expect((await listClients({ q: '920' })).clients.map((c) => c.companyName)).toEqual(['Gama Other d.o.o.']);
    expect((await listClients({ q: 'firma-1.hr' })).clients.map((c) => c.companyName)).toEqual(['Beta Search d.o.o.']);
    expect((await listClients({ q: 'search', status: 'inactive' })).clients.map((c) => c.id)).toEqual([created[3].id]);
    // A literal % is not a wildcard.
    expect((await listClients({ q: '%' })).total).toBe(0);

    const total = (await selectOne<{ n: number }>('SELECT count(*)::int AS n FROM clients'))!.n;
    const page = await listClients({ limit: 2, offset: 1 });
    expect(page.total).toBe(total);
    expect(page.clients).toHaveLength(2);
    expect(page.clients[0].id).toBe(created[2].id);
    expect((await apiFailure(listClients({ status: 'bogus' }))).status).toBe(400);
  });
});

describe('updating a client', () => {
  it('changes only the given fields, clears blanks and logs old→new', async () => {
    const user = await createTestUser();
    const client = await createClient({ actor: actorOf(user), input: { companyName: 'Staro Ime d.o.o.', oib: newOib(), city: 'Split', phone: '021 111' } });
    const updated = await updateClient({ actor: actorOf(user), id: client.id, input: { companyName: 'Novo Ime d.o.o.', phone: '', status: 'inactive' }, ip: '10.9.9.9' });
    expect(updated).toMatchObject({ companyName: 'Novo Ime d.o.o.', city: 'Split', phone: null, status: 'inactive' });
    const [log] = await activityRows('client_updated', client.id);
    expect(log).toMatchObject({
      user_id: user.id,
      ip_address: '10.9.9.9',
      details: {
        changes: {
          companyName: { old: 'Staro Ime d.o.o.', new: 'Novo Ime d.o.o.' },
          phone: { old: '021 111', new: null },
          status: { old: 'pending', new: 'inactive' },
        },
      },
    });
    // Nothing changed: nothing written.
    await updateClient({ actor: actorOf(user), id: client.id, input: { city: 'Split' } });
    expect(await activityRows('client_updated', client.id)).toHaveLength(1);
  });

  it('refuses a taken OIB (409), bad input (400) and unknown ids (404)', async () => {
    const user = await createTestUser();
    const first = await createClient({ actor: actorOf(user), input: { companyName: 'A d.o.o.', oib: newOib() } });
    const second = await createClient({ actor: actorOf(user), input: { companyName: 'B d.o.o.', oib: newOib() } });
    expect((await apiFailure(updateClient({ actor: actorOf(user), id: second.id, input: { oib: first.oib } }))).status).toBe(409);
    expect((await apiFailure(updateClient({ actor: actorOf(user), id: second.id, input: { companyName: '' } }))).body.errors).toEqual({
      companyName: ['Company name is required'],
    });
    expect((await apiFailure(updateClient({ actor: actorOf(user), id: '00000000-0000-4000-8000-000000000000', input: { city: 'X' } }))).status).toBe(404);
    expect((await apiFailure(updateClient({ actor: actorOf(user), id: 'nope', input: { city: 'X' } }))).status).toBe(404);
    expect((await getClient(second.id)).oib).toBe(second.oib);
  });
});

describe('the detail view', () => {
  it('adds the agreement, available credit and utilisation', async () => {
    const user = await createTestUser();
    const client = await createClient({ actor: actorOf(user), input: { companyName: 'Limit d.o.o.', oib: newOib() } });
    await execute(`UPDATE clients SET credit_limit = 100000.00, used_credit = 91234.56 WHERE id = :id`, { id: client.id });
    const detail = await getClient(client.id);
    expect(detail).toMatchObject({
      creditLimit: 100000,
      usedCredit: 91234.56,
      availableCredit: 8765.44,
      utilisation: 91.2,
      agreement: null,
      invoices: [],
      invoiceCount: 0,
      documents: [],
    });
    expect(detail.riskHistory.map((row) => row.assessedBy)).toEqual(['system']);
    expect(detail.activity.map((row) => row.action)).toEqual(['risk_assessed', 'client_created']);
    expect(utilisationPercent(0, null)).toBeNull();
    expect(utilisationPercent(150_00, 100_00)).toBe(150);
  });
});

describe('the /api/clients routes', () => {
  it('POST answers 201 with the stored client, 400 per field, 409 on a duplicate; GET lists with X-Total-Count', async () => {
    const user = await createTestUser();
    const cookie = await signedInCookie(user.id);
    const oib = newOib();
    const created = await clientsAction(ctx(jsonRequest('/api/clients', { companyName: 'API d.o.o.', oib, city: 'Osijek', creditLimit: 50000 }, cookie)));
    expect(created.status).toBe(201);
    const body = await created.json();
    expect(body).toMatchObject({ id: expect.any(String), companyName: 'API d.o.o.', oib, city: 'Osijek', creditLimit: null, status: 'pending', onboardingStatus: 'pending' });

    const invalid = await apiFailure(clientsAction(ctx(jsonRequest('/api/clients', { companyName: '', oib: '1', email: 'x' }, cookie))));
    expect(invalid.status).toBe(400);
    expect(invalid.body.errors).toEqual({
      companyName: ['Company name is required'],
      oib: ['OIB must be 11 digits'],
      email: ['Invalid email format'],
    });
    expect((await apiFailure(clientsAction(ctx(jsonRequest('/api/clients', { companyName: 'Dup', oib }, cookie))))).status).toBe(409);

    const list = await clientsLoader(ctx(getRequest('/api/clients?q=API&limit=1', cookie)));
    expect(list.headers.get('X-Total-Count')).toBe('1');
    expect((await list.json())[0].id).toBe(body.id);

    const detail = await clientDetailLoader({ ...ctx(getRequest(`/api/clients/${body.id}`, cookie)), params: { clientId: body.id } });
    expect((await detail.json()).agreement).toBeNull();
    expect((await apiFailure(clientDetailLoader({ ...ctx(getRequest('/api/clients/123', cookie)), params: { clientId: '123' } }))).status).toBe(404);

    const put = await clientDetailAction({ ...ctx(jsonRequest(`/api/clients/${body.id}`, { city: 'Rijeka' }, cookie, 'PUT')), params: { clientId: body.id } });
    expect(await put.json()).toMatchObject({ id: body.id, city: 'Rijeka' });
  });

  it('answers 401 without a session', async () => {
    expect((await apiFailure(clientsLoader(ctx(getRequest('/api/clients'))))).status).toBe(401);
    expect((await apiFailure(clientsAction(ctx(jsonRequest('/api/clients', {}))))).status).toBe(401);
  });
});

function ctx(request: Request) {
  return { request, params: {}, context: { clientIp: '127.0.0.1' } };
}
