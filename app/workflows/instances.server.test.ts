import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stopSender } from '../../worker/boss.ts';
import { activityRows, apiFailure, createTestUser } from '../auth/test-helpers.server.ts';
import { execute, inTransaction, selectRows } from '../db.server.ts';
import { startWorkflowInstance } from './instances.server.ts';

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
    const actor = await createTestUser({ role: 'user' });
    const entityId = randomUUID();
    const instance = await startWorkflowInstance({ type: 'client_onboarding', entityType: 'client', entityId, actor: { id: actor.id, role: 'user' } });
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
    const instance = await startWorkflowInstance({ type: 'client_onboarding', entityType: 'client', entityId: randomUUID(), actor: null });
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
    const bad = await apiFailure(
      startWorkflowInstance({ type: 'custom' as never, entityType: 'user' as never, entityId: 'nope', actor: null }),
    );
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors ?? {}).sort()).toEqual(['entityId', 'entityType', 'workflowType']);
  });

  it('runs inside the caller’s transaction: a rollback leaves no instance and no log row', async () => {
    const entityId = randomUUID();
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
