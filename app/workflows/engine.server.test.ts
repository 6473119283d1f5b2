import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stopSender } from '../jobs/boss.server.ts';
import { activityRows, apiFailure } from '../auth/test-helpers.server.ts';
import type { Actor } from '../auth/users.server.ts';
import { execute, inTransaction, selectOne, selectRows } from '../db.server.ts';
import { createDefinition, testDefinition, updateDefinition } from './definitions.server.ts';
import { controlInstance, onTaskCompleted } from './engine.server.ts';
import { getInstanceDetail, startWorkflowInstance } from './instances.server.ts';
import { workflowMetrics } from './metrics.server.ts';
import { runWorkflowStep } from './runner.server.ts';
import { automatedStep, manualStep } from './types.ts';

// The test-only step handlers (testEffect, testFlaky), registered in this process by importing the module.
import '../../tests/support/workflow-test-handlers.ts';
import { createTestUser } from '../../tests/factories.ts';
import { insertClient } from '../../tests/factories.ts';

let manager: Actor;
beforeAll(async () => {
  const row = await createTestUser({ role: 'manager' });
  manager = { id: row.id, role: 'manager' };
});
afterAll(async () => {
  await stopSender();
});

async function activeDefinition(type: 'risk_assessment' | 'payment_processing' | 'client_onboarding', steps: object[]) {
  const definition = await createDefinition({ actor: manager, input: { name: `Test ${randomUUID().slice(0, 6)}`, type, steps } });
  await updateDefinition({ actor: manager, id: definition.id, input: { isActive: true } });
  return definition;
}

async function instanceRow(id: string) {
  return (await selectOne<{ status: string; current_step: number; last_error: string | null; context: { attempt?: number } }>(
    `SELECT status, current_step, last_error, context FROM workflow_instances WHERE id = :id`,
    { id },
  ))!;
}

const effects = async (id: string) => (await activityRows('workflow_test_effect', id)).length;
const attemptOf = async (id: string) => (await instanceRow(id)).context.attempt ?? 1;
const queuedJobs = (id: string) =>
  selectRows<{ data: { stepIndex: number; attempt: number } }>(`SELECT data FROM pgboss.job WHERE name = 'workflow-step' AND data->>'instanceId' = :id ORDER BY created_on`, {
    id,
  });

// A client awaiting onboarding, the entity the workflows below run on.
const pendingClient = async () => (await insertClient({ email: 'client@example.hr', status: 'pending' })).id;

describe('running steps', () => {
  it('runs automated steps, opens the manual step task, advances on its completion and completes', async () => {
    await activeDefinition('risk_assessment', [automatedStep('Effect', 'testEffect'), manualStep('Review', 'risk_assessment'), automatedStep('Effect again', 'testEffect')]);
    const clientId = await pendingClient();
    const instance = await startWorkflowInstance({ type: 'risk_assessment', entityType: 'client', entityId: clientId, actor: manager });
    // The first step's job was sent after the start committed.
    expect((await queuedJobs(instance.id)).map((job) => job.data)).toEqual([{ instanceId: instance.id, stepIndex: 0, attempt: 1 }]);

    expect(await runWorkflowStep({ instanceId: instance.id, stepIndex: 0, attempt: 1 })).toBe('completed');
    // Delivered twice: no second effect.
    expect(await runWorkflowStep({ instanceId: instance.id, stepIndex: 0, attempt: 1 })).toBe('skipped');
    expect(await effects(instance.id)).toBe(1);

    const task = await selectOne<{ id: string; type: string; priority: string; entity_id: string; title: string }>(
      `SELECT id, type, priority, entity_id, title FROM tasks WHERE workflow_instance_id = :id AND workflow_step = 1`,
      { id: instance.id },
    );
    expect(task).toMatchObject({ type: 'risk_assessment', priority: 'high', entity_id: clientId, title: 'Review' });
    expect(await activityRows('task_created', task!.id)).toHaveLength(1);

    await inTransaction(async (transaction) => {
      await execute(`UPDATE tasks SET status = 'completed', completed_at = now() WHERE id = :id`, { id: task!.id }, { transaction });
      expect(await onTaskCompleted({ taskId: task!.id, actor: manager }, { transaction })).toEqual({ advanced: true, instanceId: instance.id });
    });
    expect((await instanceRow(instance.id)).current_step).toBe(2);
    expect((await queuedJobs(instance.id)).at(-1)?.data).toEqual({ instanceId: instance.id, stepIndex: 2, attempt: 1 });

    expect(await runWorkflowStep({ instanceId: instance.id, stepIndex: 2, attempt: 1 })).toBe('completed');
    const done = await getInstanceDetail(instance.id);
    expect(done).toMatchObject({ status: 'completed', currentStep: 3, progress: 100 });
    expect(done.stepRuns.map((run) => [run.stepIndex, run.status])).toEqual([
      [0, 'completed'],
      [1, 'completed'],
      [2, 'completed'],
    ]);
    expect(await activityRows('workflow_completed', instance.id)).toHaveLength(1);
  });

  it('pause stops the instance before its next step; resume continues it', async () => {
    await activeDefinition('risk_assessment', [automatedStep('One', 'testEffect'), automatedStep('Two', 'testEffect')]);
    const instance = await startWorkflowInstance({ type: 'risk_assessment', entityType: 'client', entityId: await pendingClient(), actor: manager });
    await runWorkflowStep({ instanceId: instance.id, stepIndex: 0, attempt: 1 });
    await controlInstance({ actor: manager, id: instance.id, control: 'pause' });
    // The job queued for step 1 before the pause now does nothing.
    expect(await runWorkflowStep({ instanceId: instance.id, stepIndex: 1, attempt: 1 })).toBe('skipped');
    expect(await instanceRow(instance.id)).toMatchObject({ status: 'paused', current_step: 1 });
    expect(await effects(instance.id)).toBe(1);
    expect((await apiFailure(controlInstance({ actor: manager, id: instance.id, control: 'pause' }))).status).toBe(409);

    await controlInstance({ actor: manager, id: instance.id, control: 'resume' });
    const attempt = await attemptOf(instance.id);
    expect(attempt).toBe(2);
    expect((await queuedJobs(instance.id)).at(-1)?.data).toEqual({ instanceId: instance.id, stepIndex: 1, attempt: 2 });
    // The stale job of the first attempt still does nothing; the resumed one runs.
    expect(await runWorkflowStep({ instanceId: instance.id, stepIndex: 1, attempt: 1 })).toBe('skipped');
    expect(await runWorkflowStep({ instanceId: instance.id, stepIndex: 1, attempt })).toBe('completed');
    expect((await instanceRow(instance.id)).status).toBe('completed');
    expect(await effects(instance.id)).toBe(2);
    expect(await activityRows('workflow_paused', instance.id)).toHaveLength(1);
    expect(await activityRows('workflow_resumed', instance.id)).toHaveLength(1);
  });

  it('a failing step is retried, fails the instance on the last attempt, and restart resumes from that step', async () => {
    await activeDefinition('risk_assessment', [automatedStep('Before', 'testEffect'), automatedStep('Flaky', 'testFlaky')]);
    const instance = await startWorkflowInstance({ type: 'risk_assessment', entityType: 'client', entityId: await pendingClient(), actor: manager });
    // Fails on 4 runs: the first delivery and 3 retries (retryLimit 3), then succeeds.
    await execute(`UPDATE workflow_instances SET context = '{"failTimes": 4}' WHERE id = :id`, { id: instance.id });
    await runWorkflowStep({ instanceId: instance.id, stepIndex: 0, attempt: 1 });
    for (let retryCount = 0; retryCount < 3; retryCount++) {
      await expect(runWorkflowStep({ instanceId: instance.id, stepIndex: 1, attempt: 1 }, { retryCount, retryLimit: 3 })).rejects.toThrow(/failing on purpose/);
      expect((await instanceRow(instance.id)).status).toBe('running');
    }
    await expect(runWorkflowStep({ instanceId: instance.id, stepIndex: 1, attempt: 1 }, { retryCount: 3, retryLimit: 3 })).rejects.toThrow();
    expect(await instanceRow(instance.id)).toMatchObject({ status: 'failed', current_step: 1, last_error: 'flaky step failing on purpose (4/4)' });
    expect(await activityRows('workflow_failed', instance.id)).toHaveLength(1);
    expect((await apiFailure(controlInstance({ actor: manager, id: instance.id, control: 'resume' }))).status).toBe(409);

    await controlInstance({ actor: manager, id: instance.id, control: 'restart' });
    expect(await instanceRow(instance.id)).toMatchObject({ status: 'running', current_step: 1, last_error: null });
    expect(await runWorkflowStep({ instanceId: instance.id, stepIndex: 1, attempt: await attemptOf(instance.id) })).toBe('completed');
    const detail = await getInstanceDetail(instance.id);
    expect(detail.status).toBe('completed');
    // Step 0 ran once; step 1 has four failed attempts and one completed one.
    expect(detail.stepRuns.map((run) => [run.stepIndex, run.status, run.attempt])).toEqual([
      [0, 'completed', 1],
      [1, 'failed', 1],
      [1, 'failed', 2],
      [1, 'failed', 3],
      [1, 'failed', 4],
      [1, 'completed', 5],
    ]);
    expect(detail.stepRuns[1].error).toMatch(/failing on purpose/);
    expect(await effects(instance.id)).toBe(2);
  });

  it('only a manager may pause, resume or restart', async () => {
    const user = await createTestUser({ role: 'user' });
    expect((await apiFailure(controlInstance({ actor: { id: user.id, role: 'user' }, id: randomUUID(), control: 'pause' }))).status).toBe(403);
    expect((await apiFailure(controlInstance({ actor: manager, id: randomUUID(), control: 'pause' }))).status).toBe(404);
    // The /workflows page posts the id from a form: anything that is no UUID is 404 too, not a SQL error.
    expect((await apiFailure(controlInstance({ actor: manager, id: 'a\u0000b', control: 'pause' }))).status).toBe(404);
  });
});

describe('definitions', () => {
  it('keeps one active definition per type and refuses unknown handlers', async () => {
    const first = await activeDefinition('payment_processing', [automatedStep('Match', 'matchPayment')]);
    const second = await activeDefinition('payment_processing', [automatedStep('Match', 'matchPayment')]);
    const active = await selectRows<{ id: string }>(`SELECT id FROM workflow_definitions WHERE type = 'payment_processing' AND is_active`);
    expect(active.map((row) => row.id)).toEqual([second.id]);
    expect(first.isActive).toBe(false);
    const bad = await apiFailure(createDefinition({ actor: manager, input: { name: 'X', type: 'risk_assessment', steps: [{ name: 'A', type: 'automated', handler: 'nope' }] } }));
    expect(bad).toMatchObject({ status: 400, body: { errors: { 'steps[0].handler': ['Unknown handler'] } } });
  });

  it('a dry run reports what each step would do and leaves no rows', async () => {
    const definition = await createDefinition({
      actor: manager,
      input: {
        name: 'Dry',
        type: 'client_onboarding',
        steps: [
          automatedStep('FINA', 'finaCheck'),
          automatedStep('Rizik', 'riskAssessment'),
          manualStep('KYC', 'kyc_verification'),
          automatedStep('Mail', 'sendWelcomeEmail'),
          automatedStep('Docs', 'checkDocuments'),
          automatedStep('Invoice', 'validateInvoice'),
          automatedStep('After', 'finaCheck'),
        ],
      },
    });
    const clientId = await pendingClient();
    const count = async () =>
      (await selectOne<{ n: number }>(`SELECT (SELECT count(*) FROM risk_assessments) + (SELECT count(*) FROM activity_logs) + (SELECT count(*) FROM tasks) AS n`))!.n;
    const before = await count();
    const report = await testDefinition({ actor: manager, definitionId: definition.id, entityId: clientId });
    expect(report.steps.map((step) => [step.status, step.summary])).toEqual([
      ['ok', expect.stringMatching(/^(FINA: .*: account (not blocked|BLOCKED)|not performed: FINA check failed)/)],
      ['ok', expect.stringMatching(/^would assess Klijent .*: \d+\/100/)],
      ['manual', 'would open a kyc_verification task and wait for it'],
      ['ok', 'would send the welcome email to client@example.hr'],
      // Missing documents do not fail the step: the KYC reviewer sees them and decides.
      ['ok', 'KYC documents present: 0 of 5 (missing: company_registration, tax_certificate, bank_statement, financial_statements, director_id)'],
      ['error', 'would fail: This step needs an invoice, not a client'],
      ['not_run', 'not run: an earlier step failed'],
    ]);
    expect(await count()).toBe(before);
    expect(await selectOne(`SELECT risk_score FROM clients WHERE id = :clientId`, { clientId })).toEqual({ risk_score: null });
  });
});

describe('metrics', () => {
  it('equal the SQL over the instances', async () => {
    const metrics = await workflowMetrics();
    const rows = await selectRows<{ status: string; minutes: number | null }>(
      `SELECT status, extract(epoch FROM completed_at - started_at) / 60 AS minutes FROM workflow_instances`,
    );
    const completed = rows.filter((row) => row.status === 'completed');
    expect(metrics.totalWorkflows).toBe(rows.length);
    expect(metrics.activeWorkflows).toBe(rows.filter((row) => row.status === 'running').length);
    expect(metrics.completionRate).toBe(Math.round((1000 * completed.length) / rows.length) / 10);
    const mean = completed.reduce((sum, row) => sum + Number(row.minutes), 0) / completed.length;
    expect(metrics.averageProcessingTime).toBeCloseTo(Math.round(mean * 10) / 10, 5);
  });
});
