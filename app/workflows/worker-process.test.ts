import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { failJobsOfDeadWorker, killStartedWorkers, startWorkerProcess, waitFor } from '../../tests/support/worker-process.ts';
import { stopSender } from '../jobs/boss.server.ts';
import { activityRows } from '../auth/test-helpers.server.ts';
import { execute, inTransaction, selectOne } from '../db.server.ts';
import { outboxDir } from '../email/mailer.server.ts';
import { decideKyc } from '../onboarding/kyc-decision.server.ts';
import { onTaskCompleted } from './engine.server.ts';
import { startWorkflowInstance } from './instances.server.ts';
import { REFERENCE_WORKFLOWS } from '../../db/reference-data.ts';
import { createTestUser } from '../../tests/factories.ts';
import { insertClient } from '../../tests/factories.ts';

/**
 * The engine with the real worker process (`node --import tsx worker/index.ts`)
 * against this file's PostgreSQL database: onboarding end to end, and a worker
 * killed with SIGKILL in the middle of a step.
 */
afterEach(killStartedWorkers);
afterAll(async () => {
  await stopSender();
});

const startWorker = () => startWorkerProcess({ testHandlers: true });

const instanceStatus = async (id: string) =>
  (await selectOne<{ status: string; current_step: number }>(`SELECT status, current_step FROM workflow_instances WHERE id = :id`, { id }))!;

const openTask = (instanceId: string, type: string) =>
  selectOne<{ id: string }>(`SELECT id FROM tasks WHERE workflow_instance_id = :instanceId AND type = :type AND status = 'pending'`, {
    instanceId,
    type,
  });

async function completeTask(taskId: string, actorId: string) {
  await inTransaction(async (transaction) => {
    await execute(`UPDATE tasks SET status = 'completed', completed_at = now() WHERE id = :taskId`, { taskId }, { transaction });
    await onTaskCompleted({ taskId, actor: { id: actorId, role: 'manager' } }, { transaction });
  });
}

async function insertDefinition(type: string, steps: object[]) {
  await execute(`UPDATE workflow_definitions SET is_active = false WHERE type = :type`, { type });
  await execute(`INSERT INTO workflow_definitions (name, type, steps, is_active) VALUES (:name, :type, CAST(:steps AS jsonb), true)`, {
    name: `${type} test`,
    type,
    steps: JSON.stringify(steps),
  });
}

describe('onboarding with the worker process', () => {
  it('runs end to end: automated steps in the worker, the KYC decision, the limit task, welcome mail, client active', { timeout: 90_000 }, async () => {
    // The client_onboarding definition every install has (db/reference-data.ts); a test database starts without it.
    await insertDefinition('client_onboarding', REFERENCE_WORKFLOWS.find((workflow) => workflow.type === 'client_onboarding')!.steps);
    const reviewer = await createTestUser({ role: 'manager' });
    const email = `welcome-${randomUUID().slice(0, 6)}@example.hr`;
    const clientId = (await insertClient({ email, status: 'pending', onboardingStatus: 'in_progress' })).id;
    for (const kycType of ['company_registration', 'tax_certificate']) {
      await execute(
        `INSERT INTO documents (name, type, kyc_type, mime_type, size, storage_key, checksum, entity_type, entity_id)
         VALUES (:kycType, 'kyc_document', :kycType, 'application/pdf', 10, :key, :checksum, 'client', :clientId)`,
        { kycType, key: randomUUID(), checksum: 'a'.repeat(64), clientId },
      );
    }
    const { output } = startWorker();
    await waitFor(async () => output.stdout.includes('worker ready'), 30_000, `worker ready (stderr: ${output.stderr})`);

    // As the registration wizard does: started inside a transaction, scheduled after its commit.
    const instance = await inTransaction((transaction) =>
      startWorkflowInstance({ type: 'client_onboarding', entityType: 'client', entityId: clientId, actor: null }, { transaction }),
    );
    const kyc = await waitFor(() => openTask(instance.id, 'kyc_verification'), 30_000, `the KYC review task (${output.stderr})`);
    expect(await instanceStatus(instance.id)).toEqual({ status: 'running', current_step: 3 });
    const risk = await selectOne<{ risk_score: number | null }>(`SELECT risk_score FROM clients WHERE id = :clientId`, { clientId });
    expect(risk?.risk_score).toEqual(expect.any(Number));

    // The review is the manager's KYC decision, which completes its task and moves the instance on.
    await decideKyc({ actor: { id: reviewer.id, role: 'manager' }, clientId, input: { decision: 'approve' } });
    expect(await selectOne(`SELECT status FROM tasks WHERE id = :id`, { id: kyc.id })).toEqual({ status: 'completed' });
    const limit = await waitFor(() => openTask(instance.id, 'limit_approval'), 10_000, 'the limit approval task');
    await completeTask(limit.id, reviewer.id);

    await waitFor(async () => (await instanceStatus(instance.id)).status === 'completed', 30_000, `completion (${output.stderr})`);
    const mails = fs.existsSync(outboxDir()) ? fs.readdirSync(outboxDir()).map((name) => fs.readFileSync(path.join(outboxDir(), name), 'utf8')) : [];
    expect(mails.filter((mail) => mail.includes(`To: ${email}`))).toHaveLength(1);
    expect(await selectOne(`SELECT status, onboarding_status FROM clients WHERE id = :clientId`, { clientId })).toEqual({
      status: 'active',
      onboarding_status: 'completed',
    });
    expect(output.stderr).toBe('');
  });
});

describe('a worker killed mid-step', () => {
  it('finishes the instance after a restart with the step applied exactly once', { timeout: 120_000 }, async () => {
    await insertDefinition('risk_assessment', [
      { name: 'Blocking effect', type: 'automated', handler: 'testEffect' },
      { name: 'Second effect', type: 'automated', handler: 'testEffect' },
    ]);
    const lock = 4_242_000 + Math.floor(Math.random() * 1000);
    // The test holds the advisory lock the step waits for, on a connection of its own.
    const holder = new pg.Client(process.env.DATABASE_URL);
    await holder.connect();
    try {
      await holder.query('SELECT pg_advisory_lock($1)', [lock]);
      const clientId = (await insertClient({ email: `kill-${randomUUID().slice(0, 6)}@example.hr`, status: 'pending', onboardingStatus: 'in_progress' })).id;
      const instance = await inTransaction(async (transaction) => {
        const started = await startWorkflowInstance({ type: 'risk_assessment', entityType: 'client', entityId: clientId, actor: null }, { transaction });
        await execute(
          `UPDATE workflow_instances SET context = CAST(:context AS jsonb) WHERE id = :id`,
          { id: started.id, context: JSON.stringify({ blockOnLock: lock }) },
          { transaction },
        );
        return started;
      });

      const first = startWorker();
      // The worker is inside the step: its transaction waits for our lock (its effect row written, uncommitted).
      await waitFor(
        async () => (await holder.query(`SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND objid = $1`, [lock])).rowCount,
        30_000,
        `the worker to block in the step (${first.output.stderr})`,
      );
      const [job] = (await holder.query(`SELECT id FROM pgboss.job WHERE name = 'workflow-step' AND state = 'active' AND data->>'instanceId' = $1`, [instance.id])).rows as Array<{
        id: string;
      }>;
      expect(job).toBeDefined();
      await first.kill();
      expect(await activityRows('workflow_test_effect', instance.id)).toHaveLength(0);

      await failJobsOfDeadWorker('workflow-step', [job.id]);
      await holder.query('SELECT pg_advisory_unlock($1)', [lock]);

      const second = startWorker();
      await waitFor(async () => (await instanceStatus(instance.id)).status === 'completed', 60_000, `completion (${second.output.stderr})`);
      // Step 0's effect exactly once, step 1's once.
      const rows = await activityRows('workflow_test_effect', instance.id);
      expect(rows.map((row) => row.details.stepIndex)).toEqual([0, 1]);
    } finally {
      await holder.end();
    }
  });
});
