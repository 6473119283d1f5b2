import type { Transaction } from 'sequelize';
import { logActivity } from '../activity-log.server.ts';
import { execute, inTransaction, selectOne } from '../db.server.ts';
import { getQueueDefinition } from '../jobs/queues.server.ts';
import { advance, attemptOf, lockInstance, nextRunAttempt, STEP_QUEUE } from './engine.server.ts';
import { getHandler } from './handlers/index.server.ts';
import { describeError, isPermanent, PermanentStepError } from './step-errors.server.ts';
import type { LockedInstance, StepJob, StepOutcome, WorkflowStepDef } from './types.ts';

/*
 * Runs automated steps (job `workflow-step`; engine.server.ts describes the
 * engine as a whole). The only part of the engine that imports the handler
 * registry, so the rest stays importable by the domain modules the handlers
 * call.
 */

type StepResult = 'completed' | 'skipped' | 'failed';

/**
 * The worker's side of an automated step. `delivery.retryCount` is pg-boss's
 * count of earlier deliveries of this job; at `retryLimit` this is the last
 * attempt, and a failure marks the instance failed. Throws the handler's error
 * (after recording it) so pg-boss retries with backoff; a PermanentStepError
 * (retrying cannot help) fails the instance at once and is not re-thrown.
 */
export async function runWorkflowStep(job: StepJob, delivery: { retryCount: number; retryLimit?: number } = { retryCount: 0 }): Promise<StepResult> {
  const retryLimit = delivery.retryLimit ?? getQueueDefinition(STEP_QUEUE).options.retryLimit;
  const startedAt = new Date();
  let failure: unknown;
  try {
    return await inTransaction(async (transaction) => {
      const instance = await lockInstance(job.instanceId, transaction);
      if (!instance || instance.status !== 'running' || instance.current_step !== job.stepIndex || attemptOf(instance) !== job.attempt) {
        return 'skipped' as const;
      }
      const step = instance.steps[job.stepIndex];
      if (!step || step.type !== 'automated') return 'skipped' as const;

      // Only reachable if a completion ever committed without the advance; then just move on.
      const done = await selectOne(
        `SELECT 1 FROM workflow_step_runs WHERE instance_id = :id AND step_index = :index AND status = 'completed' LIMIT 1`,
        { id: instance.id, index: job.stepIndex },
        { transaction },
      );
      if (done) {
        await advance(instance, transaction);
        return 'completed' as const;
      }

      const handler = getHandler(step.handler ?? '');
      if (!handler) throw new PermanentStepError(`Unknown step handler "${step.handler ?? ''}"`);
      const outcome = await handler({
        instance: {
          id: instance.id,
          workflowType: instance.workflow_type,
          entityType: instance.entity_type,
          entityId: instance.entity_id,
          context: instance.context ?? {},
        },
        step,
        stepIndex: job.stepIndex,
        transaction,
        dryRun: false,
      });
      await recordCompletedRun(instance, job.stepIndex, step, outcome, startedAt, transaction);
      await advance(instance, transaction);
      return 'completed' as const;
    });
  } catch (error) {
    failure = error;
  }

  const permanent = isPermanent(failure);
  const message = await describeError(failure);
  try {
    await recordStepFailure(job, message.slice(0, 5000), startedAt, permanent || delivery.retryCount >= retryLimit);
  } catch (error) {
    console.error(`workflow: could not record the failure of step ${job.stepIndex} of ${job.instanceId}`, error);
  }
  if (permanent) return 'failed';
  throw failure;
}

async function recordCompletedRun(instance: LockedInstance, index: number, step: WorkflowStepDef, outcome: StepOutcome, startedAt: Date, transaction: Transaction) {
  await execute(
    `INSERT INTO workflow_step_runs (instance_id, step_index, step_name, step_type, status, attempt, outcome, started_at, finished_at)
     VALUES (:id, :index, :name, :type, 'completed', :attempt, CAST(:outcome AS jsonb), :startedAt, clock_timestamp())`,
    {
      id: instance.id,
      index,
      name: step.name,
      type: step.type,
      attempt: await nextRunAttempt(instance.id, index, transaction),
      outcome: JSON.stringify(outcome),
      startedAt,
    },
    { transaction },
  );
  await logActivity(
    {
      action: 'workflow_step_completed',
      userId: null,
      entityType: 'workflow_instance',
      entityId: instance.id,
      details: { stepIndex: index, stepName: step.name, summary: outcome.summary },
    },
    transaction,
  );
}

/** In its own transaction, after the step's transaction rolled back: the failed attempt, and on the last one the instance fails. */
async function recordStepFailure(job: StepJob, message: string, startedAt: Date, last: boolean): Promise<void> {
  await inTransaction(async (transaction) => {
    const instance = await lockInstance(job.instanceId, transaction);
    if (!instance || instance.status !== 'running' || instance.current_step !== job.stepIndex || attemptOf(instance) !== job.attempt) return;
    const step = instance.steps[job.stepIndex];
    await execute(
      `INSERT INTO workflow_step_runs (instance_id, step_index, step_name, step_type, status, attempt, error, started_at, finished_at)
       VALUES (:id, :index, :name, :type, 'failed', :attempt, :error, :startedAt, clock_timestamp())`,
      {
        id: instance.id,
        index: job.stepIndex,
        name: step?.name ?? `#${job.stepIndex + 1}`,
        type: step?.type ?? 'automated',
        attempt: await nextRunAttempt(instance.id, job.stepIndex, transaction),
        error: message,
        startedAt,
      },
      { transaction },
    );
    await execute(
      `UPDATE workflow_instances SET last_error = :message, status = CASE WHEN :last THEN 'failed' ELSE status END, updated_at = now()
        WHERE id = :id`,
      { id: instance.id, message, last },
      { transaction },
    );
    const details = { stepIndex: job.stepIndex, stepName: step?.name ?? null, error: message };
    await logActivity({ action: 'workflow_step_failed', userId: null, entityType: 'workflow_instance', entityId: instance.id, details }, transaction);
    if (last) {
      await logActivity({ action: 'workflow_failed', userId: null, entityType: 'workflow_instance', entityId: instance.id, details }, transaction);
    }
  });
}
