import { describe, expect, it } from 'vitest';
import { activityRows, apiFailure, getRequest, jsonRequest, signedInCookie } from '../auth/test-helpers.server.ts';
import { execute, inTransaction, selectOne, selectRows } from '../db.server.ts';
import { action as assessmentAction, loader as assessmentLoader } from '../routes/api.risk-assessments.$id.ts';
import { action as assessmentsAction, loader as assessmentsLoader } from '../routes/api.risk-assessments.ts';
import { adjustAssessment, assessEntity, categoryCounts, getAssessment, listAssessments } from './assessments.server.ts';
import { computeScore, RISK_FACTOR_NAMES } from './scoring.server.ts';
import { createTestUser, insertClient, insertCustomer, insertInvoice } from '../../tests/factories.ts';

const actorOf = (row: { id: string; role: 'user' | 'manager' | 'admin' | 'super_admin' }) => ({ id: row.id, role: row.role });
const entityScore = (table: 'clients' | 'customers', id: string) =>
  selectOne<{ risk_score: number | null; risk_category: string | null }>(`SELECT risk_score, risk_category FROM ${table} WHERE id = :id`, { id });
const ctx = (request: Request, params: Record<string, string> = {}) => ({ request, params, context: { clientIp: '127.0.0.1' } });

describe('assessEntity', () => {
  it('stores factors that recompute to the score, and the entity follows it, in one transaction', async () => {
    const user = await createTestUser();
    const { id: customerId } = await insertCustomer({ foundedOn: '2012-05-01' });
    const assessment = await assessEntity({ entityType: 'customer', entityId: customerId, actor: actorOf(user), reason: 'on_demand', notes: ' Provjera ', ip: '10.1.1.1' });
    expect(assessment).toMatchObject({ entityType: 'customer', entityId: customerId, manualAdjustment: 0, assessedBy: 'Test User', notes: 'Provjera' });
    // In the factor table's order, whatever order jsonb keeps its keys in.
    expect(Object.keys(assessment.factors)).toEqual([...RISK_FACTOR_NAMES]);
    for (const factor of Object.values(assessment.factors)) {
      expect(Object.keys(factor).sort()).toEqual(['explanation', 'score', 'value', 'weight']);
      expect(factor).toMatchObject({ score: expect.any(Number), weight: expect.any(Number), explanation: expect.any(String) });
    }
    expect(computeScore(assessment.factors)).toEqual({ automaticScore: assessment.automaticScore, score: assessment.score, category: assessment.category });
    expect(await entityScore('customers', customerId)).toEqual({ risk_score: assessment.score, risk_category: assessment.category });
    const [log] = await activityRows('risk_assessed', customerId);
    expect(log).toMatchObject({ user_id: user.id, ip_address: '10.1.1.1', details: { assessmentId: assessment.id, reason: 'on_demand', score: assessment.score } });
  });

  it("records the system as assessor (NULL, shown as 'system') and joins the caller's transaction", async () => {
    const { id: clientId } = await insertClient();
    const error = await inTransaction(async (transaction) => {
      await assessEntity({ entityType: 'client', entityId: clientId, actor: null, reason: 'created' }, { transaction });
      throw new Error('roll back');
    }).catch((e: unknown) => e);
    expect((error as Error).message).toBe('roll back');
    expect(await selectRows(`SELECT id FROM risk_assessments WHERE entity_id = :clientId`, { clientId })).toEqual([]);
    expect(await entityScore('clients', clientId)).toEqual({ risk_score: null, risk_category: null });

    const assessment = await inTransaction((transaction) => assessEntity({ entityType: 'client', entityId: clientId, actor: null, reason: 'created' }, { transaction }));
    expect(assessment.assessedBy).toBe('system');
    expect((await selectOne<{ assessed_by: string | null }>(`SELECT assessed_by FROM risk_assessments WHERE id = :id`, { id: assessment.id }))!.assessed_by).toBeNull();
  });

  it('stores the FINA state of a checked customer as finaData and follows a blockage', async () => {
    const { id: customerId } = await insertCustomer();
    const before = await assessEntity({ entityType: 'customer', entityId: customerId, actor: null, reason: 'created' });
    expect(before.finaData).toBeNull();
    await inTransaction(async (transaction) => {
      await execute(`UPDATE customers SET account_blocked = true, blockage_reason = 'Ovrha', last_fina_check = now() WHERE id = :customerId`, { customerId }, { transaction });
      await assessEntity({ entityType: 'customer', entityId: customerId, actor: null, reason: 'blockage' }, { transaction });
    });
    const { items } = await listAssessments({ q: null, limit: 1 });
    expect(items[0].factors.accountBlockages).toMatchObject({ score: 0, value: 1 });
    expect(items[0].finaData).toMatchObject({ accountBlocked: true, blockageReason: 'Ovrha' });
    expect(items[0].score).toBe(before.score - 15);
    expect((await entityScore('customers', customerId))!.risk_score).toBe(items[0].score);
  });

  it('refuses an unknown entity (404) and a bad entity type (400)', async () => {
    expect((await apiFailure(assessEntity({ entityType: 'client', entityId: 'nope', actor: null, reason: 'created' }))).status).toBe(404);
    expect((await apiFailure(assessEntity({ entityType: 'customer', entityId: '00000000-0000-4000-8000-000000000000', actor: null, reason: 'created' }))).body).toMatchObject({
      message: 'Customer not found',
      code: 'errors.parties.customerNotFound',
      errors: { entityId: ['Customer not found'] },
    });
    // @ts-expect-error an entity type the schema does not know
    const badType = await apiFailure(assessEntity({ entityType: 'invoice', entityId: 'x', actor: null, reason: 'created' }));
    expect(badType).toMatchObject({ status: 400, body: { errors: { entityType: ['Entity type must be client or customer'] } } });
  });
});

describe('adjustAssessment', () => {
  it('records the manager and time, clamps, recategorises, and logs old and new', async () => {
    const manager = await createTestUser({ role: 'manager' });
    const { id: clientId } = await insertClient();
    const assessment = await assessEntity({ entityType: 'client', entityId: clientId, actor: null, reason: 'created' });
    expect(assessment.automaticScore).toBe(85);

    const adjusted = await adjustAssessment({ actor: actorOf(manager), id: assessment.id, manualAdjustment: -26, notes: 'Spor u naplati', ip: '10.0.0.9' });
    expect(adjusted).toMatchObject({ automaticScore: 85, manualAdjustment: -26, score: 59, category: 'high', notes: 'Spor u naplati', adjustedBy: 'Test User' });
    expect(Date.now() - new Date(adjusted.adjustedAt!).getTime()).toBeLessThan(60_000);
    expect(adjusted.assessedBy).toBe('system');
    expect(computeScore(adjusted.factors, adjusted.manualAdjustment)).toEqual({ automaticScore: 85, score: 59, category: 'high' });
    expect(await entityScore('clients', clientId)).toEqual({ risk_score: 59, risk_category: 'high' });
    const [log] = await activityRows('risk_adjusted', clientId);
    expect(log).toMatchObject({
      user_id: manager.id,
      details: { assessmentId: assessment.id, old: { manualAdjustment: 0, score: 85 }, new: { manualAdjustment: -26, score: 59, category: 'high' }, latest: true },
    });

    const capped = await adjustAssessment({ actor: actorOf(manager), id: assessment.id, manualAdjustment: 100, notes: 'Garancija banke' });
    expect(capped).toMatchObject({ score: 100, category: 'low' });
  });

  it('answers 403 to role user, 400 to a bad adjustment or missing notes, 404 to an unknown id', async () => {
    const user = await createTestUser();
    const manager = await createTestUser({ role: 'manager' });
    const { id: clientId } = await insertClient();
    const { id } = await assessEntity({ entityType: 'client', entityId: clientId, actor: null, reason: 'created' });
    expect((await apiFailure(adjustAssessment({ actor: actorOf(user), id, manualAdjustment: 5, notes: 'x' }))).status).toBe(403);
    expect((await apiFailure(adjustAssessment({ actor: actorOf(manager), id, manualAdjustment: 101, notes: 'x' }))).body.errors).toHaveProperty('manualAdjustment');
    expect((await apiFailure(adjustAssessment({ actor: actorOf(manager), id, manualAdjustment: 2.5, notes: 'x' }))).status).toBe(400);
    expect((await apiFailure(adjustAssessment({ actor: actorOf(manager), id, manualAdjustment: 5, notes: '  ' }))).body.errors).toHaveProperty('notes');
    expect((await apiFailure(adjustAssessment({ actor: actorOf(manager), id: '00000000-0000-4000-8000-000000000000', manualAdjustment: 5, notes: 'x' }))).status).toBe(404);
    expect((await getAssessment(id)).manualAdjustment).toBe(0);
  });

  it("moves the entity's score only when the adjusted assessment is its latest", async () => {
    const manager = await createTestUser({ role: 'manager' });
    const { id: customerId } = await insertCustomer();
    const older = await assessEntity({ entityType: 'customer', entityId: customerId, actor: null, reason: 'created' });
    const latest = await assessEntity({ entityType: 'customer', entityId: customerId, actor: null, reason: 'on_demand' });
    await adjustAssessment({ actor: actorOf(manager), id: older.id, manualAdjustment: -50, notes: 'Stara procjena' });
    expect((await entityScore('customers', customerId))!.risk_score).toBe(latest.score);
    await adjustAssessment({ actor: actorOf(manager), id: latest.id, manualAdjustment: -10, notes: 'Nova procjena' });
    expect((await entityScore('customers', customerId))!.risk_score).toBe(latest.score - 10);
  });
});

describe('list and counts', () => {
  it('filters by name, entity type and category, newest first, and counts categories as SQL does', async () => {
    const { id: clientId } = await insertClient({ name: 'Zvonimir Promet d.o.o.' });
    const { id: customerId } = await insertCustomer({ name: 'Zvonimir Kupac d.d.', blocked: true });
    await insertInvoice({ clientId, customerId, amount: '100.00', dueDate: '2020-01-01' });
    const first = await assessEntity({ entityType: 'client', entityId: clientId, actor: null, reason: 'created' });
    const second = await assessEntity({ entityType: 'customer', entityId: customerId, actor: null, reason: 'created' });

    const named = await listAssessments({ q: 'zvonimir' });
    expect(named.total).toBe(2);
    expect(named.items.map((item) => item.id)).toEqual([second.id, first.id]);
    expect(named.items[0].entityName).toBe('Zvonimir Kupac d.d.');
    expect((await listAssessments({ q: 'zvonimir', entityType: 'client' })).items.map((item) => item.id)).toEqual([first.id]);
    expect((await listAssessments({ q: 'zvonimir', category: second.category })).items.map((item) => item.id)).toContain(second.id);
    expect((await listAssessments({ q: '100%_' })).total).toBe(0);
    const paged = await listAssessments({ limit: 1, offset: 1 });
    expect(paged.items).toHaveLength(1);

    const counts = await categoryCounts();
    const sql = await selectRows<{ category: string; n: number }>(`SELECT category, count(*)::int AS n FROM risk_assessments GROUP BY category`);
    const bySql = Object.fromEntries(sql.map((row) => [row.category, row.n]));
    expect(counts).toEqual({ low: bySql.low ?? 0, medium: bySql.medium ?? 0, high: bySql.high ?? 0, total: paged.total });
    expect(counts.low + counts.medium + counts.high).toBe(counts.total);
  });
});

describe('the API', () => {
  it('lists with X-Total-Count, creates on demand (201), reads one, and adjusts for managers only', async () => {
    const user = await createTestUser();
    const manager = await createTestUser({ role: 'manager' });
    const userCookie = await signedInCookie(user.id);
    const managerCookie = await signedInCookie(manager.id);
    const { id: clientId } = await insertClient({ name: 'API Rizik d.o.o.' });

    const created = await assessmentsAction(ctx(jsonRequest('/api/risk-assessments', { entityType: 'client', entityId: clientId, notes: 'Na zahtjev' }, userCookie)));
    expect(created.status).toBe(201);
    const body = await created.json();
    expect(Object.keys(body)).toEqual(
      expect.arrayContaining([
        'id',
        'entityType',
        'entityId',
        'entityName',
        'category',
        'score',
        'automaticScore',
        'manualAdjustment',
        'assessedBy',
        'factors',
        'notes',
        'hanfaData',
        'finaData',
        'createdAt',
      ]),
    );
    expect(body).toMatchObject({ entityName: 'API Rizik d.o.o.', assessedBy: 'Test User', notes: 'Na zahtjev' });

    const list = await assessmentsLoader(ctx(getRequest('/api/risk-assessments?q=API%20Rizik&entityType=client&limit=5', userCookie)));
    expect(list.headers.get('X-Total-Count')).toBe('1');
    expect((await list.json())[0].id).toBe(body.id);
    const none = await assessmentsLoader(ctx(getRequest('/api/risk-assessments?category=nonsense', userCookie)));
    expect(await none.json()).toEqual([]);

    const one = await assessmentLoader(ctx(getRequest(`/api/risk-assessments/${body.id}`, userCookie), { id: body.id }));
    expect((await one.json()).id).toBe(body.id);
    expect((await apiFailure(assessmentLoader(ctx(getRequest('/api/risk-assessments/x', userCookie), { id: 'x' })))).status).toBe(404);

    const forbidden = await apiFailure(
      assessmentAction(ctx(jsonRequest(`/api/risk-assessments/${body.id}`, { manualAdjustment: 5, notes: 'x' }, userCookie, 'PUT'), { id: body.id })),
    );
    expect(forbidden).toMatchObject({ status: 403, body: { message: 'Forbidden' } });
    const adjusted = await assessmentAction(
      ctx(jsonRequest(`/api/risk-assessments/${body.id}`, { manualAdjustment: -3, notes: 'Korekcija' }, managerCookie, 'PUT'), { id: body.id }),
    );
    expect(await adjusted.json()).toMatchObject({ manualAdjustment: -3, score: body.automaticScore - 3, adjustedBy: 'Test User' });

    const invalid = await apiFailure(assessmentsAction(ctx(jsonRequest('/api/risk-assessments', { entityType: 'x', entityId: 'y' }, userCookie))));
    expect(invalid.status).toBe(400);
    expect(Object.keys(invalid.body.errors ?? {})).toEqual(['entityType', 'entityId']);
  });
});
