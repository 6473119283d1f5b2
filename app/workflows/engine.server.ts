import type { Transaction } from 'sequelize';
import { logActivity } from '../activity-log.server.ts';
import { assertCan } from '../auth/permissions.server.ts';
import type { Actor } from '../auth/users.server.ts';
import { execute, inTransaction, selectOne } from '../db.server.ts';
import { sendJob } from '../jobs/boss.server.ts';
import { apiError } from '../utils/api.server.ts';
import { WORKFLOW_MESSAGES, type WorkflowType } from './schemas.ts';
import type { LockedInstance, StepJob, WorkflowStepDef } from './types.ts';
import { isUuid } from '../utils/validation.ts';
import type { Client, Task } from '../../db/models/index.ts';
import type { RowOf } from '../../db/models/rows.ts';

/**
 * The workflow engine (docs/lifecycle.md#workflows). An instance walks its steps
 * snapshot one step at a time:
 * - an automated step is a pg-boss job `workflow-step` {instanceId, stepIndex,
 *   attempt}; the worker runs the handler INSIDE the transaction that locks
 *   the instance and marks the step completed, so the step's effect and its
 *   'completed' mark commit together: a worker killed mid-step leaves
 *   nothing, and the redelivered job applies the effect exactly once;
 * - a manual step opens a task and waits for onTaskCompleted.
 * The job itself is run by runner.server.ts, the only module that needs the
 * step handlers: this one schedules and moves instances on and imports no
 * handler, so the domain modules a handler calls may start workflows here
 * without a cycle (docs/decisions/009-layers-and-imports.md).
 * Jobs are sent after commit, so no job refers to rows that were rolled back.
 * A job is a no-op unless the instance is running at exactly that step and
 * run attempt (`context.attempt`, bumped by resume and restart), so a job
 * delivered twice, after a pause, or left over from before a restart, does
 * nothing.
 */

export const STEP_QUEUE = 'workflow-step';

/** The instance's run attempt (bumped by resume and restart); a step job of another attempt does nothing. */
export const attemptOf = (instance: Pick<LockedInstance, 'context'>) => Number(instance.context?.attempt ?? 1) || 1;

export async function lockInstance(id: string, transaction: Transaction): Promise<LockedInstance | null> {
  // FOR UPDATE OF i: only the instance row; the definition is just read for its name and type.
  return selectOne<LockedInstance>(
    `SELECT i.id, i.workflow_id, d.type AS workflow_type, d.name AS workflow_name, i.status, i.entity_type, i.entity_id,
            i.current_step, i.steps, i.context
       FROM workflow_instances i JOIN workflow_definitions d ON d.id = i.workflow_id
      WHERE i.id = :id FOR UPDATE OF i`,
    { id },
    { transaction },
  );
}

/** Sends the step's job once `transaction` commits; a failed send is logged, the instance can be resumed. */
function enqueueAfterCommit(transaction: Transaction, job: StepJob): void {
  transaction.afterCommit(async () => {
    try {
      await sendJob(STEP_QUEUE, job);
    } catch (error) {
      console.error(`workflow: could not enqueue step ${job.stepIndex} of instance ${job.instanceId}`, error);
    }
  });
}

/**
 * Makes the instance's current step happen: automated → its job after commit;
 * manual → its task (once). Nothing while the instance is not running.
 */
async function enterStep(instance: LockedInstance, transaction: Transaction): Promise<void> {
  if (instance.status !== 'running') return;
  const step = instance.steps[instance.current_step];
  if (!step) return;
  if (step.type === 'automated') {
    enqueueAfterCommit(transaction, { instanceId: instance.id, stepIndex: instance.current_step, attempt: attemptOf(instance) });
    return;
  }
  await openManualStep(instance, step, transaction);
}

/**
 * The manual steps that stand for a staff decision on the instance's entity
 * rather than for their task (docs/reference-data.md): the KYC review of an
 * onboarding, the manual review of an invoice verification (verify or reject
 * the invoice) and of a payment processing (confirm or fail the payment).
 */
export function isDecisionStep(workflowType: WorkflowType, step: WorkflowStepDef | undefined): boolean {
  if (step?.type !== 'manual') return false;
  if (workflowType === 'client_onboarding') return step.taskType === 'kyc_verification';
  if (workflowType === 'invoice_verification' || workflowType === 'payment_processing') return (step.taskType ?? 'manual_review') === 'manual_review';
  return false;
}

/** The run outcome of a decision step whose approval came before the instance reached it, or null. */
function decisionTakenBefore(instance: LockedInstance, step: WorkflowStepDef): Record<string, unknown> | null {
  if (!isDecisionStep(instance.workflow_type, step)) return null;
  const context = instance.context ?? {};
  const approved = instance.workflow_type === 'client_onboarding' ? context.kycDecision === 'approved' : context.decision === 'approved';
  if (!approved) return null;
  const decidedBy = [context.kycDecidedBy, context.decidedBy].find((id): id is string => typeof id === 'string') ?? null;
  const what = instance.workflow_type === 'client_onboarding' ? 'KYC approved' : String(context.decisionSummary ?? 'approved');
  return { summary: `${what} before this step was reached`, decision: 'approve', decidedBy };
}

async function openManualStep(instance: LockedInstance, step: WorkflowStepDef, transaction: Transaction): Promise<void> {
  const index = instance.current_step;
  const waiting = await selectOne(
    `SELECT 1 FROM workflow_step_runs WHERE instance_id = :id AND step_index = :index AND status = 'waiting'`,
    { id: instance.id, index },
    { transaction },
  );
  if (waiting) return;
  // Staff decided before the instance got here (app/workflows/decisions.server.ts): that decision is this step.
  const decided = decisionTakenBefore(instance, step);
  if (decided) {
    await completeManualRun(instance, index, step, decided, null, transaction);
    await advance(instance, transaction);
    return;
  }
  const taskId = await insertStepTask(instance, step, transaction);
  await execute(
    `INSERT INTO workflow_step_runs (instance_id, step_index, step_name, step_type, status, attempt, outcome, started_at)
     VALUES (:id, :index, :name, 'manual', 'waiting', :attempt, CAST(:outcome AS jsonb), clock_timestamp())`,
    {
      id: instance.id,
      index,
      name: step.name,
      attempt: await nextRunAttempt(instance.id, index, transaction),
      outcome: JSON.stringify({ taskId, summary: `waiting for task ${step.taskType ?? ''}`.trim() }),
    },
    { transaction },
  );
}

/** The task of the instance's current manual step, and its activity row; `note` is added to the description. */
export async function insertStepTask(instance: LockedInstance, step: WorkflowStepDef, transaction: Transaction, note?: string): Promise<string> {
  const index = instance.current_step;
  const entityName = await entityNameOf(instance.entity_type, instance.entity_id, transaction);
  const description = `${instance.workflow_name}${entityName ? ` · ${entityName}` : ''} (${index + 1}/${instance.steps.length})${note ? `\n${note}` : ''}`;
  const { rows } = await execute<{ id: string }>(
    // KYC review is promised within 1-3 business days (docs/lifecycle.md#onboarding-and-kyc): the task is due in 3 days.
    `INSERT INTO tasks (title, description, type, priority, status, due_date, entity_type, entity_id, workflow_instance_id, workflow_step)
     VALUES (:title, :description, :type, 'high', 'pending', now() + interval '3 days', :entityType, :entityId, :instanceId, :index)
     RETURNING id`,
    {
      title: step.name.slice(0, 255),
      description: description.slice(0, 5000),
      type: step.taskType ?? 'manual_review',
      entityType: instance.entity_type,
      entityId: instance.entity_id,
      instanceId: instance.id,
      index,
    },
    { transaction },
  );
  const taskId = rows[0].id;
  await logActivity(
    {
      action: 'task_created',
      userId: null,
      entityType: 'task',
      entityId: taskId,
      details: { title: step.name, type: step.taskType, workflowInstanceId: instance.id, workflowStep: index },
    },
    transaction,
  );
  return taskId;
}

/** Marks the instance's waiting run of manual step `index` completed with `outcome` (or records one), and logs it. */
export async function completeManualRun(
  instance: LockedInstance,
  index: number,
  step: WorkflowStepDef,
  outcome: Record<string, unknown>,
  actorId: string | null,
  transaction: Transaction,
): Promise<void> {
  const json = JSON.stringify(outcome);
  const { count } = await execute(
    `UPDATE workflow_step_runs SET status = 'completed', finished_at = clock_timestamp(), outcome = CAST(:outcome AS jsonb)
      WHERE instance_id = :id AND step_index = :index AND status = 'waiting'`,
    { id: instance.id, index, outcome: json },
    { transaction },
  );
  if (count === 0) {
    await execute(
      `INSERT INTO workflow_step_runs (instance_id, step_index, step_name, step_type, status, attempt, outcome, finished_at)
       VALUES (:id, :index, :name, 'manual', 'completed', :attempt, CAST(:outcome AS jsonb), clock_timestamp())`,
      { id: instance.id, index, name: step.name, attempt: await nextRunAttempt(instance.id, index, transaction), outcome: json },
      { transaction },
    );
  }
  await logActivity(
    {
      action: 'workflow_step_completed',
      userId: actorId,
      entityType: 'workflow_instance',
      entityId: instance.id,
      details: { stepIndex: index, stepName: step.name, ...(typeof outcome.taskId === 'string' ? { taskId: outcome.taskId } : {}), summary: outcome.summary },
    },
    transaction,
  );
}

async function entityNameOf(entityType: string, entityId: string, transaction: Transaction): Promise<string | null> {
  const sql: Record<string, string> = {
    client: `SELECT company_name AS name FROM clients WHERE id = :id`,
    customer: `SELECT company_name AS name FROM customers WHERE id = :id`,
    invoice: `SELECT invoice_number AS name FROM invoices WHERE id = :id`,
    payment: `SELECT i.invoice_number AS name FROM payments p JOIN invoices i ON i.id = p.invoice_id WHERE p.id = :id`,
  };
  if (!sql[entityType]) return null;
  return (await selectOne<{ name: string }>(sql[entityType], { id: entityId }, { transaction }))?.name ?? null;
}

export async function nextRunAttempt(instanceId: string, index: number, transaction: Transaction): Promise<number> {
  const row = await selectOne<{ n: number }>(
    `SELECT count(*)::int AS n FROM workflow_step_runs WHERE instance_id = :instanceId AND step_index = :index`,
    { instanceId, index },
    { transaction },
  );
  return (row?.n ?? 0) + 1;
}

/** Moves past the current (completed) step: into the next one, or completes the instance. */
export async function advance(instance: LockedInstance, transaction: Transaction): Promise<void> {
  const next = instance.current_step + 1;
  if (next >= instance.steps.length) {
    await execute(
      `UPDATE workflow_instances SET status = 'completed', completed_at = now(), current_step = :next, last_error = NULL, updated_at = now()
        WHERE id = :id`,
      { id: instance.id, next: instance.steps.length },
      { transaction },
    );
    await logActivity(
      {
        action: 'workflow_completed',
        userId: null,
        entityType: 'workflow_instance',
        entityId: instance.id,
        details: { workflowType: instance.workflow_type, entityType: instance.entity_type, entityId: instance.entity_id },
      },
      transaction,
    );
    await onInstanceCompleted(instance, transaction);
    return;
  }
  await execute(`UPDATE workflow_instances SET current_step = :next, updated_at = now() WHERE id = :id`, { id: instance.id, next }, { transaction });
  await enterStep({ ...instance, current_step: next }, transaction);
}

/**
 * A finished onboarding is logged on its client. The client's KYC is decided
 * by staff only (app/onboarding/kyc-decision.server.ts), never by the end of
 * an instance: a definition edited to drop the review step must not approve
 * anyone.
 */
async function onInstanceCompleted(instance: LockedInstance, transaction: Transaction): Promise<void> {
  if (instance.workflow_type !== 'client_onboarding' || instance.entity_type !== 'client') return;
  const client = await selectOne<RowOf<typeof Client, 'status' | 'onboarding_status'>>(
    `SELECT status, onboarding_status FROM clients WHERE id = :id`,
    { id: instance.entity_id },
    { transaction },
  );
  if (!client) return;
  await logActivity(
    {
      action: 'client_onboarding_completed',
      userId: null,
      entityType: 'client',
      entityId: instance.entity_id,
      details: { workflowInstanceId: instance.id, status: client.status, onboardingStatus: client.onboarding_status },
    },
    transaction,
  );
}

/** Schedules the first step of a just-created instance once `transaction` commits (startWorkflowInstance). */
export async function scheduleFirstStep(instanceId: string, transaction: Transaction): Promise<void> {
  const instance = await lockInstance(instanceId, transaction);
  if (instance) await enterStep(instance, transaction);
}

/**
 * Called by the tasks domain inside its completeTask transaction. When the
 * task belongs to the current manual step of a running (or paused) instance,
 * that step is completed and the instance advances; the next automated step
 * is enqueued after commit (a paused instance waits for resume). Any other
 * task is left alone.
 */
export async function onTaskCompleted(
  { taskId, actor }: { taskId: string; actor: Actor | null },
  { transaction }: { transaction: Transaction },
): Promise<{ advanced: boolean; instanceId: string | null }> {
  const task = await selectOne<RowOf<typeof Task, 'workflow_instance_id' | 'workflow_step'>>(
    `SELECT workflow_instance_id, workflow_step FROM tasks WHERE id = :taskId`,
    { taskId },
    { transaction },
  );
  if (!task?.workflow_instance_id || task.workflow_step === null) return { advanced: false, instanceId: null };
  const instance = await lockInstance(task.workflow_instance_id, transaction);
  const step = instance?.steps[task.workflow_step];
  if (!instance || (instance.status !== 'running' && instance.status !== 'paused') || instance.current_step !== task.workflow_step || step?.type !== 'manual') {
    return { advanced: false, instanceId: task.workflow_instance_id };
  }
  await completeManualRun(instance, task.workflow_step, step, { taskId, completedBy: actor?.id ?? null, summary: 'task completed' }, actor?.id ?? null, transaction);
  await advance(instance, transaction);
  return { advanced: true, instanceId: instance.id };
}

type Control = 'pause' | 'resume' | 'restart';
const CONTROL: Record<Control, { from: LockedInstance['status']; action: string; refusal: string }> = {
  pause: { from: 'running', action: 'workflow_paused', refusal: WORKFLOW_MESSAGES.notRunning },
  resume: { from: 'paused', action: 'workflow_resumed', refusal: WORKFLOW_MESSAGES.notPaused },
  restart: { from: 'failed', action: 'workflow_restarted', refusal: WORKFLOW_MESSAGES.notFailed },
};

/**
 * Pause (running → paused: a queued step job then does nothing), resume
 * (paused → running: the current step is scheduled again) and restart
 * (failed → running from the failed step, as a new attempt). Manager only
 * ('run:workflow'). 404 unknown id, 409 wrong state.
 */
export async function controlInstance(input: { actor: Actor; id: string; control: Control; ip?: string | null }): Promise<{ id: string; status: string }> {
  assertCan(input.actor, 'run:workflow');
  const rule = CONTROL[input.control];
  // An id that is no UUID names no instance (a form may post anything): 404, not a SQL error.
  if (!isUuid(input.id)) throw apiError(404, WORKFLOW_MESSAGES.instanceNotFound);
  return inTransaction(async (transaction) => {
    const instance = await lockInstance(input.id, transaction);
    if (!instance) throw apiError(404, WORKFLOW_MESSAGES.instanceNotFound);
    if (instance.status !== rule.from) throw apiError(409, rule.refusal);
    const status = input.control === 'pause' ? 'paused' : 'running';
    // A new attempt on resume/restart retires every job of the earlier one still queued or retrying.
    const attempt = input.control === 'pause' ? attemptOf(instance) : attemptOf(instance) + 1;
    await execute(
      `UPDATE workflow_instances
          SET status = :status, context = context || jsonb_build_object('attempt', CAST(:attempt AS int)),
              last_error = CASE WHEN :restart THEN NULL ELSE last_error END, updated_at = now()
        WHERE id = :id`,
      { id: instance.id, status, attempt, restart: input.control === 'restart' },
      { transaction },
    );
    await logActivity(
      {
        action: rule.action,
        userId: input.actor.id,
        entityType: 'workflow_instance',
        entityId: instance.id,
        ipAddress: input.ip ?? null,
        details: { stepIndex: instance.current_step, stepName: instance.steps[instance.current_step]?.name ?? null },
      },
      transaction,
    );
    if (status === 'running') await enterStep({ ...instance, status, context: { ...instance.context, attempt } }, transaction);
    return { id: instance.id, status };
  });
}
