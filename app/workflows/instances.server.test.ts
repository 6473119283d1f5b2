import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stopSender } from '../jobs/boss.server.ts';
import { activityRows, apiFailure, invalidInput, jsonRequest, signedInCookie } from '../auth/test-helpers.server.ts';
import { execute, inTransaction, selectRows } from '../db.server.ts';
import { action as startAction } from '../routes/api.workflows.start.ts';
import { startWorkflowInstance } from './instances.server.ts';
import { createTestUser } from '../../tests/factories.ts';
import { insertClient } from '../../tests/factories.ts';

const STEPS = [
  { name: 'Provjera dokumentacije', type: 'automated', handler: 'checkDocuments' },
  { name: 'KYC pregled', type: 'manual', taskType: 'kyc_verification' },
];

async function definition(type: string, isActive: boolean, steps: object[] = STEPS) {
  const { rows } = await execute<{ id: string }>(
    `INSERT INTO workflow_definitions (name, type, steps, is_active) VALUES (:name, :type, CAST(:steps AS jsonb), :isActive) RETURNING id`,
    { name: `${type} ${randomUUID().slice(0, 4)}`, type, steps: JSON.stringify(steps), isActive },
  );
  return rows[0].id;
}

// Starting an instance sends its first step's job after commit.
afterAll(async () => {
  await stopSender();
});

let activeId: string;
beforeAll(async () => {
  await definition('client_onboarding', false, [{ name: 'Stari korak', type: 'manual' }]);
  activeId = await definition('client_onboarding', true);
});

describe('startWorkflowInstance', () => {
  it('starts a running instance at step 0 of the active definition, with its steps and who started it, and logs it', async () => {
    const actor = await createTestUser({ role: 'manager' });
    const entityId = (await insertClient({ status: 'pending' })).id;
    const instance = await startWorkflowInstance({ type: 'client_onboarding', entityType: 'client', entityId, actor: { id: actor.id, role: 'manager' } });
    expect(instance).toMatchObject({
      workflowId: activeId,
      workflowType: 'client_onboarding',
      status: 'running',
      entityType: 'client',
      entityId,
      currentStep: 0,
      steps: STEPS,
      startedBy: actor.id,
      completedAt: null,
    });
    const [log] = await activityRows('workflow_started', instance.id);
    expect(log).toMatchObject({ user_id: actor.id, details: { workflowType: 'client_onboarding', entityType: 'client', entityId } });
  });

  it('an applicant (actor null) starts it with nobody as starter', async () => {
    const instance = await startWorkflowInstance({ type: 'client_onboarding', entityType: 'client', entityId: (await insertClient({ status: 'pending' })).id, actor: null });
    expect(instance.startedBy).toBeNull();
    expect((await activityRows('workflow_started', instance.id))[0].user_id).toBeNull();
  });

  it('answers 409 when no definition of the type is active, and writes nothing', async () => {
    await definition('payment_processing', false);
    const entityId = randomUUID();
    const failure = await apiFailure(startWorkflowInstance({ type: 'payment_processing', entityType: 'payment', entityId, actor: null }));
    expect(failure).toMatchObject({ status: 409, body: { message: 'No active workflow definition for payment_processing' } });
    expect(await selectRows(`SELECT id FROM workflow_instances WHERE entity_id = :entityId`, { entityId })).toEqual([]);
  });

  it('refuses an unknown type, entity type or id with 400', async () => {
    const bad = await apiFailure(startWorkflowInstance({ type: invalidInput('custom'), entityType: invalidInput('user'), entityId: 'nope', actor: null }));
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors ?? {}).sort()).toEqual(['entityId', 'entityType', 'workflowType']);
  });

  it('answers 404 on entityId for an id that names nothing, or an entity the workflow does not work on, and writes nothing', async () => {
    const before = await selectRows(`SELECT id FROM workflow_instances`);
    const missing = await apiFailure(startWorkflowInstance({ type: 'client_onboarding', entityType: 'client', entityId: randomUUID(), actor: null }));
    expect(missing).toMatchObject({ status: 404, body: { message: 'No client with this id', errors: { entityId: ['No client with this id'] } } });
    const clientId = (await insertClient({ status: 'pending' })).id;
    const wrongType = await apiFailure(startWorkflowInstance({ type: 'client_onboarding', entityType: 'invoice', entityId: clientId, actor: null }));
    expect(wrongType).toMatchObject({ status: 404, body: { errors: { entityId: ['A client_onboarding workflow works on client, not on invoice'] } } });
    // The right type but the id of another kind of entity: no such invoice.
    await definition('invoice_verification', true);
    const notAnInvoice = await apiFailure(startWorkflowInstance({ type: 'invoice_verification', entityType: 'invoice', entityId: clientId, actor: null }));
    expect(notAnInvoice).toMatchObject({ status: 404, body: { errors: { entityId: ['No invoice with this id'] } } });
    expect(await selectRows(`SELECT id FROM workflow_instances`)).toEqual(before);
  });

  it('runs inside the caller’s transaction: a rollback leaves no instance and no log row', async () => {
    const entityId = (await insertClient({ status: 'pending' })).id;
    await expect(
      inTransaction(async (transaction) => {
        await startWorkflowInstance({ type: 'client_onboarding', entityType: 'client', entityId, actor: null }, { transaction });
        throw new Error('later step failed');
      }),
    ).rejects.toThrow('later step failed');
    expect(await selectRows(`SELECT id FROM workflow_instances WHERE entity_id = :entityId`, { entityId })).toEqual([]);
    expect(await selectRows(`SELECT id FROM activity_logs WHERE details->>'entityId' = :entityId`, { entityId })).toEqual([]);
  });
});

describe('POST /api/workflows/start', () => {
  const call = async (body: unknown, cookie: string) => startAction({ request: jsonRequest('/api/workflows/start', body, cookie), params: {}, context: { clientIp: '127.0.0.1' } });

  it('is refused to a user (managers run workflows), starts for a manager, and is 404 on entityId for an unknown entity', async () => {
    const clientId = (await insertClient({ status: 'pending' })).id;
    const body = { workflowType: 'client_onboarding', entityType: 'client', entityId: clientId };
    const user = await signedInCookie((await createTestUser({ role: 'user' })).id);
    expect((await apiFailure(call(body, user))).status).toBe(403);
    const manager = await signedInCookie((await createTestUser({ role: 'manager' })).id);
    const started = await call(body, manager);
    expect(started.status).toBe(201);
    expect(await started.json()).toMatchObject({ entityId: clientId, workflowType: 'client_onboarding' });
    const unknown = await apiFailure(call({ ...body, entityId: randomUUID() }, manager));
    expect(unknown).toMatchObject({ status: 404, body: { errors: { entityId: ['No client with this id'] } } });
  });
});
