import type { Transaction } from 'sequelize';
import { logActivity } from '../activity-log.server.ts';
import type { Actor } from '../auth/users.server.ts';
import { execute, selectOne, selectRows } from '../db.server.ts';
import type { LockedInstance, StepOutcome, WorkflowStepDef } from './types.ts';
import { completeOpenTasks } from '../tasks/complete-open.server.ts';
import { advance, completeManualRun, insertStepTask, isDecisionStep, lockInstance, nextRunAttempt } from './engine.server.ts';
import type { Task } from '../../db/models/index.ts';
import type { RowOf } from '../../db/models/rows.ts';

/**
 * Staff decisions that stand for a manual step of a workflow instance
 * (docs/reference-data.md): the applicant's KYC decision for the onboarding's
 * review, verifying or rejecting an invoice for the verification's manual
 * review, confirming or failing a payment for its processing's confirmation.
 * Each runs inside the decision's own transaction, so the decision and the
 * instance's step move together or not at all.
 */

// ---------------------------------------------------------------------------
// The applicant's KYC decision (app/onboarding/kyc-decision.server.ts) and the onboarding instance

/** The manual step whose task is the KYC review: only a staff decision completes it. */
export function isKycReview(step: WorkflowStepDef | undefined): boolean {
  return isDecisionStep('client_onboarding', step);
}

/**
 * The client's onboarding instances still under way (running, paused or
 * failed), newest first, each locked. Callers lock these before the client
 * row, in the order a step job does (instance, then what its handler writes).
 */
async function lockOnboardingInstances(clientId: string, transaction: Transaction): Promise<LockedInstance[]> {
  const rows = await selectRows<{ id: string }>(
    `SELECT i.id FROM workflow_instances i JOIN workflow_definitions d ON d.id = i.workflow_id
      WHERE d.type = 'client_onboarding' AND i.entity_type = 'client' AND i.entity_id = :clientId
        AND i.status IN ('running', 'paused', 'failed')
      ORDER BY i.started_at DESC, i.id DESC`,
    { clientId },
    { transaction },
  );
  const locked: LockedInstance[] = [];
  for (const row of rows) {
    const instance = await lockInstance(row.id, transaction);
    // One that completed between the read and the lock is left alone.
    if (instance && instance.status !== 'completed') locked.push(instance);
  }
  return locked;
}

export type KycDecision = 'approve' | 'reject' | 'request_documents';
/**
 * What a decision did to an instance: `advanced` past its review, `noted` for
 * a review not reached yet, `ended` (rejected), `waiting` for the applicant's
 * documents at its review, `unchanged` (documents asked before the review).
 */
export type KycEffect = 'advanced' | 'noted' | 'ended' | 'waiting' | 'unchanged';

/** Locks the client's onboarding instances under way; call before locking the client (see lockOnboardingInstances). */
export async function lockClientOnboarding(clientId: string, transaction: Transaction): Promise<string[]> {
  return (await lockOnboardingInstances(clientId, transaction)).map((instance) => instance.id);
}

/**
 * Applies a staff KYC decision to every onboarding instance of the client
 * still under way, in the decision's transaction:
 * - approve: an instance waiting at its review completes that step and goes
 *   on (the next step is entered, or its job sent after commit); one that has
 *   not reached the review yet keeps the approval in its context, and the
 *   review step completes by itself when reached;
 * - reject: the instance ends (status completed, the outcome 'rejected' in its
 *   context): the review step is completed with the decision, the steps after
 *   it recorded as skipped, its other open tasks cancelled;
 * - request_documents: an instance at its review keeps waiting there (its
 *   task is closed by the caller; resumeKycReview opens a new one when the
 *   documents arrive).
 */
export async function applyKycDecision(
  input: { clientId: string; decision: KycDecision; actor: Actor; reason?: string | null; requestId?: string | null },
  { transaction }: { transaction: Transaction },
): Promise<Array<{ instanceId: string; effect: KycEffect }>> {
  const results: Array<{ instanceId: string; effect: KycEffect }> = [];
  for (const instance of await lockOnboardingInstances(input.clientId, transaction)) {
    const index = instance.current_step;
    const step = instance.steps[index];
    const atReview = isKycReview(step) && (instance.status === 'running' || instance.status === 'paused');
    if (input.decision === 'approve') {
      const context = { ...instance.context, kycDecision: 'approved', kycDecidedBy: input.actor.id };
      await execute(
        `UPDATE workflow_instances SET context = CAST(:context AS jsonb), updated_at = now() WHERE id = :id`,
        { id: instance.id, context: JSON.stringify(context) },
        { transaction },
      );
      if (atReview) {
        await completeManualRun(instance, index, step, { summary: 'KYC approved', decision: 'approve', decidedBy: input.actor.id }, input.actor.id, transaction);
        await advance({ ...instance, context }, transaction);
        results.push({ instanceId: instance.id, effect: 'advanced' });
      } else {
        results.push({ instanceId: instance.id, effect: 'noted' });
      }
    } else if (input.decision === 'reject') {
      await endRejected(instance, input.actor, input.reason ?? null, transaction);
      results.push({ instanceId: instance.id, effect: 'ended' });
    } else if (atReview) {
      await execute(
        `UPDATE workflow_step_runs SET outcome = CAST(:outcome AS jsonb)
          WHERE instance_id = :id AND step_index = :index AND status = 'waiting'`,
        { id: instance.id, index, outcome: JSON.stringify({ taskId: null, requestId: input.requestId ?? null, summary: 'waiting for documents from the applicant' }) },
        { transaction },
      );
      results.push({ instanceId: instance.id, effect: 'waiting' });
    } else {
      results.push({ instanceId: instance.id, effect: 'unchanged' });
    }
  }
  return results;
}

async function endRejected(instance: LockedInstance, actor: Actor, reason: string | null, transaction: Transaction): Promise<void> {
  await endEarly(
    instance,
    actor,
    {
      decisionRun: { summary: 'KYC rejected', decision: 'reject', reason, decidedBy: actor.id },
      skipped: 'skipped: the application was rejected',
      context: { kycDecision: 'rejected', outcome: 'rejected', kycDecidedBy: actor.id },
      details: { outcome: 'rejected', reason },
      // The review task itself is closed by the caller (closeKycTasks).
      cancelReason: 'application rejected',
      keepTaskType: 'kyc_verification',
    },
    transaction,
  );
}

/**
 * Ends an instance before its last step because of a decision: a decision
 * step it stands at is completed with `decisionRun`, any other current step and
 * every later one are recorded as skipped, the instance is completed ('completed'
 * is the engine's one final state besides 'failed'; the context says how it
 * ended), and its open tasks are cancelled (but those of `keepTaskType`).
 */
async function endEarly(
  instance: LockedInstance,
  actor: Actor,
  how: { decisionRun: Record<string, unknown>; skipped: string; context: Record<string, unknown>; details: Record<string, unknown>; cancelReason: string; keepTaskType?: string },
  transaction: Transaction,
): Promise<string[]> {
  const index = instance.current_step;
  const step = instance.steps[index];
  const skipped = { summary: how.skipped };
  if (isDecisionStep(instance.workflow_type, step)) {
    await completeManualRun(instance, index, step, how.decisionRun, actor.id, transaction);
  } else if (step) {
    const { count } = await execute(
      `UPDATE workflow_step_runs SET status = 'skipped', finished_at = clock_timestamp(), outcome = CAST(:outcome AS jsonb)
        WHERE instance_id = :id AND step_index = :index AND status IN ('waiting', 'running')`,
      { id: instance.id, index, outcome: JSON.stringify(skipped) },
      { transaction },
    );
    if (count === 0) await insertSkippedRun(instance, index, step, skipped, transaction);
  }
  for (let later = index + 1; later < instance.steps.length; later++) await insertSkippedRun(instance, later, instance.steps[later], skipped, transaction);

  await execute(
    `UPDATE workflow_instances
        SET status = 'completed', completed_at = now(), last_error = NULL, updated_at = now(), context = context || CAST(:context AS jsonb)
      WHERE id = :id`,
    { id: instance.id, context: JSON.stringify(how.context) },
    { transaction },
  );
  await logActivity(
    {
      action: 'workflow_completed',
      userId: actor.id,
      entityType: 'workflow_instance',
      entityId: instance.id,
      details: { workflowType: instance.workflow_type, entityType: instance.entity_type, entityId: instance.entity_id, ...how.details, stepIndex: index },
    },
    transaction,
  );
  // Nothing is left to do for an ended instance: its open tasks go.
  const cancelled = await execute<RowOf<typeof Task, 'id' | 'title'>>(
    `UPDATE tasks SET status = 'cancelled' WHERE workflow_instance_id = :id AND status IN ('pending', 'in_progress') AND type <> :keep
      RETURNING id, title`,
    { id: instance.id, keep: how.keepTaskType ?? '' },
    { transaction },
  );
  for (const task of cancelled.rows) {
    await logActivity(
      {
        action: 'task_cancelled',
        userId: actor.id,
        entityType: 'task',
        entityId: task.id,
        details: { title: task.title, reason: how.cancelReason, workflowInstanceId: instance.id },
      },
      transaction,
    );
  }
  return cancelled.rows.map((task) => task.id);
}

async function insertSkippedRun(instance: LockedInstance, index: number, step: WorkflowStepDef, outcome: StepOutcome, transaction: Transaction): Promise<void> {
  await execute(
    `INSERT INTO workflow_step_runs (instance_id, step_index, step_name, step_type, status, attempt, outcome, started_at, finished_at)
     VALUES (:id, :index, :name, :type, 'skipped', :attempt, CAST(:outcome AS jsonb), clock_timestamp(), clock_timestamp())`,
    { id: instance.id, index, name: step.name, type: step.type, attempt: await nextRunAttempt(instance.id, index, transaction), outcome: JSON.stringify(outcome) },
    { transaction },
  );
}

/**
 * The applicant sent the documents staff asked for: an onboarding instance
 * waiting at its KYC review without an open review task gets a new one (the
 * review resumes). Returns the new task's id, or null when no instance was
 * waiting like that (the caller then tells staff another way).
 */
export async function resumeKycReview(input: { clientId: string; note: string }, { transaction }: { transaction: Transaction }): Promise<string | null> {
  for (const instance of await lockOnboardingInstances(input.clientId, transaction)) {
    const step = instance.steps[instance.current_step];
    if (!isKycReview(step) || (instance.status !== 'running' && instance.status !== 'paused')) continue;
    const open = await selectOne(
      `SELECT 1 FROM tasks WHERE workflow_instance_id = :id AND workflow_step = :index AND status IN ('pending', 'in_progress') LIMIT 1`,
      { id: instance.id, index: instance.current_step },
      { transaction },
    );
    if (open) continue;
    const taskId = await insertStepTask(instance, step, transaction, input.note);
    const outcome = JSON.stringify({ taskId, summary: `waiting for task ${step.taskType ?? ''} (documents received)`.trim() });
    const { count } = await execute(
      `UPDATE workflow_step_runs SET outcome = CAST(:outcome AS jsonb) WHERE instance_id = :id AND step_index = :index AND status = 'waiting'`,
      { id: instance.id, index: instance.current_step, outcome },
      { transaction },
    );
    if (count === 0) {
      await execute(
        `INSERT INTO workflow_step_runs (instance_id, step_index, step_name, step_type, status, attempt, outcome, started_at)
         VALUES (:id, :index, :name, 'manual', 'waiting', :attempt, CAST(:outcome AS jsonb), clock_timestamp())`,
        { id: instance.id, index: instance.current_step, name: step.name, attempt: await nextRunAttempt(instance.id, instance.current_step, transaction), outcome },
        { transaction },
      );
    }
    return taskId;
  }
  return null;
}

// ---------------------------------------------------------------------------
// Invoice verified or rejected, payment confirmed or failed

/** The workflows whose manual review a decision on their entity stands for, and the entity each is about. */
const ENTITY_DECISIONS = {
  invoice_verification: 'invoice',
  payment_processing: 'payment',
} as const;
export type EntityDecisionWorkflow = keyof typeof ENTITY_DECISIONS;

/**
 * What a decision did to an instance: `advanced` past its review (the task
 * completed), `noted` for a review not reached yet (it completes by itself
 * when reached), `ended` (a refusal ends the instance, the steps left
 * skipped), `unchanged` (already past its review).
 */
export type EntityDecisionEffect = 'advanced' | 'noted' | 'ended' | 'unchanged';

/**
 * A manager verified or rejected an invoice, or confirmed or failed a
 * payment: in that transaction, the entity's instance of `workflowType`
 * still under way (running, paused or failed) takes the decision as its
 * manual review.
 * - approve (verified, confirmed): at the review, the step completes with the
 *   decision, its open task is completed by the same manager and the
 *   instance goes on; before it, the approval is kept in the context and the
 *   review completes by itself when reached;
 * - reject (rejected, failed): the instance ends there, the steps left are
 *   recorded as skipped, its open tasks are completed (the review's) or
 *   cancelled (any other), so no step notifies anyone of what did not happen.
 * Called after the entity row is locked: step handlers of these workflows only
 * read the invoice or payment, so the order cannot deadlock with a step job.
 */
export async function applyEntityDecision(
  input: { workflowType: EntityDecisionWorkflow; entityId: string; decision: 'approve' | 'reject'; actor: Actor; summary: string; reason?: string | null },
  { transaction }: { transaction: Transaction },
): Promise<Array<{ instanceId: string; effect: EntityDecisionEffect }>> {
  const rows = await selectRows<{ id: string }>(
    `SELECT i.id FROM workflow_instances i JOIN workflow_definitions d ON d.id = i.workflow_id
      WHERE d.type = :workflowType AND i.entity_type = :entityType AND i.entity_id = :entityId
        AND i.status IN ('running', 'paused', 'failed')
      ORDER BY i.started_at, i.id`,
    { workflowType: input.workflowType, entityType: ENTITY_DECISIONS[input.workflowType], entityId: input.entityId },
    { transaction },
  );
  const results: Array<{ instanceId: string; effect: EntityDecisionEffect }> = [];
  for (const row of rows) {
    const instance = await lockInstance(row.id, transaction);
    if (!instance || instance.status === 'completed') continue;
    const index = instance.current_step;
    const step = instance.steps[index];
    const reviewIndex = instance.steps.findIndex((candidate) => isDecisionStep(instance.workflow_type, candidate));
    if (reviewIndex === -1 || index > reviewIndex) {
      results.push({ instanceId: instance.id, effect: 'unchanged' });
      continue;
    }
    const decisionRun = { summary: input.summary, decision: input.decision, decidedBy: input.actor.id, ...(input.reason ? { reason: input.reason } : {}) };
    const atReview = index === reviewIndex && (instance.status === 'running' || instance.status === 'paused');
    if (input.decision === 'reject') {
      const closed = atReview ? await completeStepTasks(instance, index, input.actor, input.summary, transaction) : [];
      await endEarly(
        instance,
        input.actor,
        {
          decisionRun: { ...decisionRun, ...(closed[0] ? { taskId: closed[0] } : {}) },
          skipped: `skipped: ${input.summary}`,
          context: { decision: 'rejected', decidedBy: input.actor.id, decisionSummary: input.summary, outcome: 'rejected' },
          details: { outcome: 'rejected', decision: input.summary, ...(input.reason ? { reason: input.reason } : {}) },
          cancelReason: input.summary,
        },
        transaction,
      );
      results.push({ instanceId: instance.id, effect: 'ended' });
      continue;
    }
    const context = { ...instance.context, decision: 'approved', decidedBy: input.actor.id, decisionSummary: input.summary };
    await execute(
      `UPDATE workflow_instances SET context = CAST(:context AS jsonb), updated_at = now() WHERE id = :id`,
      { id: instance.id, context: JSON.stringify(context) },
      { transaction },
    );
    if (!atReview) {
      results.push({ instanceId: instance.id, effect: 'noted' });
      continue;
    }
    const closed = await completeStepTasks(instance, index, input.actor, input.summary, transaction);
    await completeManualRun(instance, index, step, { ...decisionRun, ...(closed[0] ? { taskId: closed[0] } : {}) }, input.actor.id, transaction);
    await advance({ ...instance, context }, transaction);
    results.push({ instanceId: instance.id, effect: 'advanced' });
  }
  return results;
}

/** Completes the open tasks of the instance's step `index` in the decider's name, each logged. */
function completeStepTasks(instance: LockedInstance, index: number, actor: Actor, decision: string, transaction: Transaction): Promise<string[]> {
  const where = 'workflow_instance_id = :id AND workflow_step = :index';
  return completeOpenTasks({ where, replacements: { id: instance.id, index } }, { actor }, { decision, workflowInstanceId: instance.id }, transaction);
}
