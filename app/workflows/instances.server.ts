import type { Transaction } from 'sequelize';
import { WORKFLOW_ENTITY_TYPES, WORKFLOW_INSTANCE_STATUSES, WORKFLOW_TYPES, type WorkflowEntityType, type WorkflowStartEvent, type WorkflowType } from '../../db/models/enums.ts';
import { logActivity } from '../activity-log.server.ts';
import type { Actor } from '../auth/users.server.ts';
import { execute, inTransaction, selectOne, selectRows } from '../db.server.ts';
import { apiError } from '../utils/api.server.ts';
import { scheduleFirstStep } from './engine.server.ts';
import { ENTITY_TYPES_OF, WORKFLOW_MESSAGES } from './schemas.ts';
import type { WorkflowStepDef } from './types.ts';
import { isUuid } from '../utils/validation.ts';
import type { Task, WorkflowDefinition, WorkflowInstance, WorkflowStepRun } from '../../db/models/index.ts';
import type { RowOf } from '../../db/models/rows.ts';
import { iso } from '../utils/api-values.ts';

/**
 * Workflow instances (docs/domain-model.md Workflow instance; docs/lifecycle.md#workflows): starting one
 * records it at step 0 with the definition's steps copied in, and the engine
 * schedules that step once the caller's transaction commits; the lists and
 * the step history the API and /workflows read.
 */
export interface WorkflowInstanceDto {
  id: string;
  workflowId: string;
  workflowType: WorkflowType;
  status: 'running' | 'completed' | 'failed' | 'paused';
  entityType: WorkflowEntityType;
  entityId: string;
  currentStep: number;
  steps: WorkflowStepDef[];
  startedBy: string | null;
  startedAt: string;
  completedAt: string | null;
  /** The business event that started it; null when started by hand or by the registration wizard. */
  startEvent: WorkflowStartEvent | null;
}

type InstanceRow = RowOf<
  typeof WorkflowInstance,
  'id' | 'workflow_id' | 'status' | 'entity_type' | 'entity_id' | 'current_step' | 'steps' | 'started_by' | 'started_at' | 'completed_at' | 'start_event'
>;

export async function startWorkflowInstance(
  input: { type: WorkflowType; entityType: WorkflowEntityType; entityId: string; actor: Actor | null; ip?: string | null },
  options: { transaction?: Transaction } = {},
): Promise<WorkflowInstanceDto> {
  const { type, entityType, entityId } = input;
  // Callers pass typed values, but the API route passes what a user typed: refuse junk before SQL sees it.
  const errors: Record<string, string[]> = {};
  if (!(WORKFLOW_TYPES as readonly string[]).includes(type)) errors.workflowType = [WORKFLOW_MESSAGES.typeInvalid];
  if (!(WORKFLOW_ENTITY_TYPES as readonly string[]).includes(entityType)) errors.entityType = [WORKFLOW_MESSAGES.entityTypeInvalid];
  if (typeof entityId !== 'string' || !isUuid(entityId)) errors.entityId = [WORKFLOW_MESSAGES.entityIdRequired];
  if (Object.keys(errors).length > 0) throw apiError(400, Object.values(errors)[0][0], { errors: errors });

  assertEntityTypeFits(type, entityType);
  const run = async (transaction: Transaction) => {
    const definition = await activeDefinition(type, transaction);
    if (!definition) throw apiError(409, WORKFLOW_MESSAGES.noActiveDefinition, { params: { type } });
    await assertEntityExists(entityType, entityId, transaction);
    return (await insertInstance(definition, { ...input, entityId: entityId.toLowerCase() }, transaction))!;
  };
  return inTransaction(run, options.transaction);
}

/** Which workflow each business event starts (docs/reference-data.md); client onboarding is started by the wizard itself. */
export const WORKFLOW_OF_EVENT: Record<WorkflowStartEvent, WorkflowType> = {
  invoice_submitted: 'invoice_verification',
  risk_assessment_completed: 'risk_assessment',
  payment_recorded: 'payment_processing',
};

/**
 * Starts the workflow of a business event inside the event's own
 * transaction, so the instance exists exactly when the event committed.
 * Answers null, and the event proceeds without one, when no definition of
 * the type is active (staff switched it off) or when an instance this event
 * started for the entity is still open: the unique index
 * workflow_instances_open_event_key makes that hold under concurrency, as a
 * second insert waits for the first and then does nothing. `context` is
 * handed to the steps (e.g. the assessment that started a risk review).
 */
export async function startWorkflowOnEvent(
  input: {
    event: WorkflowStartEvent;
    entityType: WorkflowEntityType;
    entityId: string;
    actor: Actor | null;
    ip?: string | null;
    context?: Record<string, unknown>;
  },
  { transaction }: { transaction: Transaction },
): Promise<WorkflowInstanceDto | null> {
  const type = WORKFLOW_OF_EVENT[input.event];
  const definition = await activeDefinition(type, transaction);
  if (!definition) return null;
  return insertInstance(
    definition,
    { type, entityType: input.entityType, entityId: input.entityId.toLowerCase(), actor: input.actor, ip: input.ip, startEvent: input.event, context: input.context },
    transaction,
  );
}

async function activeDefinition(type: WorkflowType, transaction: Transaction) {
  // Several active definitions of one type can exist while one is being replaced: the newest wins.
  return selectOne<RowOf<typeof WorkflowDefinition, 'id' | 'steps'>>(
    `SELECT id, steps FROM workflow_definitions WHERE type = :type AND is_active
      ORDER BY updated_at DESC, created_at DESC LIMIT 1 FOR SHARE`,
    { type },
    { transaction },
  );
}

/** The instance at step 0 with the definition's steps, its log row, and its first step after commit; null when an event's open instance exists. */
async function insertInstance(
  definition: { id: string; steps: WorkflowStepDef[] },
  input: {
    type: WorkflowType;
    entityType: WorkflowEntityType;
    entityId: string;
    actor: Actor | null;
    ip?: string | null;
    startEvent?: WorkflowStartEvent;
    context?: Record<string, unknown>;
  },
  transaction: Transaction,
): Promise<WorkflowInstanceDto | null> {
  const { rows } = await execute<InstanceRow>(
    `INSERT INTO workflow_instances (workflow_id, status, entity_type, entity_id, current_step, steps, context, started_by, start_event)
     VALUES (:workflowId, 'running', :entityType, :entityId, 0, CAST(:steps AS jsonb), CAST(:context AS jsonb), :startedBy, :startEvent)
     ${input.startEvent ? `ON CONFLICT (start_event, entity_type, entity_id) WHERE start_event IS NOT NULL AND status <> 'completed' DO NOTHING` : ''}
     RETURNING id, workflow_id, status, entity_type, entity_id, current_step, steps, started_by, started_at, completed_at, start_event`,
    {
      workflowId: definition.id,
      entityType: input.entityType,
      entityId: input.entityId,
      steps: JSON.stringify(definition.steps),
      context: JSON.stringify(input.context ?? {}),
      startedBy: input.actor?.id ?? null,
      startEvent: input.startEvent ?? null,
    },
    { transaction },
  );
  const row = rows[0];
  if (!row) return null;
  await logActivity(
    {
      action: 'workflow_started',
      userId: input.actor?.id ?? null,
      entityType: 'workflow_instance',
      entityId: row.id,
      ipAddress: input.ip ?? null,
      details: {
        workflowType: input.type,
        workflowId: definition.id,
        entityType: input.entityType,
        entityId: row.entity_id,
        ...(input.startEvent ? { startEvent: input.startEvent } : {}),
      },
    },
    transaction,
  );
  // After commit: a rolled-back registration leaves no job behind.
  await scheduleFirstStep(row.id, transaction);
  return toDto(row, input.type);
}

const ENTITY_TABLES: Record<WorkflowEntityType, string> = {
  client: 'clients',
  customer: 'customers',
  invoice: 'invoices',
  payment: 'payments',
  credit_limit_request: 'credit_limit_requests',
};

/**
 * An instance works on a real entity of a type its workflow handles (a client
 * for onboarding, an invoice for verification, …): anything else is a 404 on
 * entityId, so no instance is ever started for an id that names nothing.
 */
function assertEntityTypeFits(type: WorkflowType, entityType: WorkflowEntityType): void {
  if (!ENTITY_TYPES_OF[type].includes(entityType)) {
    const refusal = { code: WORKFLOW_MESSAGES.entityTypeMismatch, params: { type, entityTypes: ENTITY_TYPES_OF[type].join(' or '), entityType } };
    throw apiError(404, refusal.code, { params: refusal.params, errors: { entityId: [refusal] } });
  }
}

async function assertEntityExists(entityType: WorkflowEntityType, entityId: string, transaction: Transaction): Promise<void> {
  // The table name comes from the fixed map above, never from input.
  const found = await selectOne(`SELECT 1 AS found FROM ${ENTITY_TABLES[entityType]} WHERE id = :id`, { id: entityId.toLowerCase() }, { transaction });
  if (!found) {
    const refusal = { code: WORKFLOW_MESSAGES.noEntity, params: { entityType } };
    throw apiError(404, refusal.code, { params: refusal.params, errors: { entityId: [refusal] } });
  }
}

function toDto(row: InstanceRow, workflowType: WorkflowType): WorkflowInstanceDto {
  return {
    id: row.id,
    workflowId: row.workflow_id,
    workflowType,
    status: row.status,
    entityType: row.entity_type,
    entityId: row.entity_id,
    currentStep: row.current_step,
    steps: row.steps,
    startedBy: row.started_by,
    startedAt: iso(row.started_at),
    completedAt: iso(row.completed_at),
    startEvent: row.start_event ?? null,
  };
}

/** A row of GET /api/workflow-instances and an instance card on /workflows. */
export interface WorkflowInstanceListItem extends WorkflowInstanceDto {
  workflowName: string;
  entityName: string | null;
  totalSteps: number;
  /** docs/screens.md: current step / number of steps, as a whole percent. */
  progress: number;
  currentStepName: string | null;
  lastError: string | null;
  updatedAt: string;
}

export interface StepRunDto {
  id: string;
  stepIndex: number;
  stepName: string;
  stepType: 'automated' | 'manual';
  status: 'running' | 'waiting' | 'completed' | 'failed' | 'skipped';
  attempt: number;
  outcome: Record<string, unknown> | null;
  error: string | null;
  startedAt: string;
  finishedAt: string | null;
}

export interface WorkflowInstanceDetail extends WorkflowInstanceListItem {
  stepRuns: StepRunDto[];
  tasks: Array<{ id: string; title: string; type: string; status: string; workflowStep: number | null }>;
}

type ListRow = InstanceRow &
  RowOf<typeof WorkflowInstance, 'last_error' | 'updated_at'> & {
    workflow_type: RowOf<typeof WorkflowDefinition>['type'];
    workflow_name: RowOf<typeof WorkflowDefinition>['name'];
    entity_name: string | null;
  };

const LIST_SELECT = `
  SELECT i.id, i.workflow_id, i.status, i.entity_type, i.entity_id, i.current_step, i.steps, i.started_by, i.started_at,
         i.completed_at, i.start_event, i.last_error, i.updated_at, d.type AS workflow_type, d.name AS workflow_name,
         coalesce(cl.company_name, cu.company_name, inv.invoice_number, pinv.invoice_number) AS entity_name
    FROM workflow_instances i
    JOIN workflow_definitions d ON d.id = i.workflow_id
    LEFT JOIN clients cl ON i.entity_type = 'client' AND cl.id = i.entity_id
    LEFT JOIN customers cu ON i.entity_type = 'customer' AND cu.id = i.entity_id
    LEFT JOIN invoices inv ON i.entity_type = 'invoice' AND inv.id = i.entity_id
    -- A payment is named by the invoice it pays.
    LEFT JOIN payments pay ON i.entity_type = 'payment' AND pay.id = i.entity_id
    LEFT JOIN invoices pinv ON pinv.id = pay.invoice_id`;

function toListItem(row: ListRow): WorkflowInstanceListItem {
  const total = Array.isArray(row.steps) ? row.steps.length : 0;
  // Object.assign rather than a spread: see toClientDto (app/clients/clients.server.ts).
  return Object.assign(toDto(row, row.workflow_type), {
    workflowName: row.workflow_name,
    entityName: row.entity_name,
    totalSteps: total,
    progress: total === 0 ? 0 : Math.round((Math.min(row.current_step, total) / total) * 100),
    currentStepName: row.steps?.[row.current_step]?.name ?? null,
    lastError: row.last_error,
    updatedAt: iso(row.updated_at),
  });
}

export async function listInstances(options: { status?: string | null; limit?: number; offset?: number } = {}): Promise<{ items: WorkflowInstanceListItem[]; total: number }> {
  const status = options.status && (WORKFLOW_INSTANCE_STATUSES as readonly string[]).includes(options.status) ? options.status : null;
  const where = status ? 'WHERE i.status = :status' : '';
  const [items, count] = await Promise.all([
    selectRows<ListRow>(`${LIST_SELECT} ${where} ORDER BY i.started_at DESC, i.id DESC LIMIT :limit OFFSET :offset`, {
      status,
      limit: options.limit ?? 100,
      offset: options.offset ?? 0,
    }),
    selectOne<{ total: number }>(`SELECT count(*)::int AS total FROM workflow_instances i ${where}`, { status }),
  ]);
  return { items: items.map(toListItem), total: count?.total ?? 0 };
}

/** The four counters of /workflows, one grouped count. */
export async function instanceStatusCounts(): Promise<Record<'running' | 'completed' | 'failed' | 'paused', number>> {
  const rows = await selectRows<RowOf<typeof WorkflowInstance, 'status'> & { n: number }>(`SELECT status, count(*)::int AS n FROM workflow_instances GROUP BY status`);
  const counts = { running: 0, completed: 0, failed: 0, paused: 0 };
  for (const row of rows) counts[row.status] = row.n;
  return counts;
}

/** 'details': the instance with every step run (start, end, outcome, error, attempt) and its tasks. 404 unknown. */
export async function getInstanceDetail(id: string): Promise<WorkflowInstanceDetail> {
  const row = isUuid(id) ? await selectOne<ListRow>(`${LIST_SELECT} WHERE i.id = :id`, { id }) : null;
  if (!row) throw apiError(404, WORKFLOW_MESSAGES.instanceNotFound);
  const [runs, tasks] = await Promise.all([
    selectRows<RowOf<typeof WorkflowStepRun>>(`SELECT * FROM workflow_step_runs WHERE instance_id = :id ORDER BY step_index, started_at, attempt`, { id }),
    selectRows<RowOf<typeof Task, 'id' | 'title' | 'type' | 'status' | 'workflow_step'>>(
      `SELECT id, title, type, status, workflow_step FROM tasks WHERE workflow_instance_id = :id ORDER BY created_at`,
      { id },
    ),
  ]);
  return {
    ...toListItem(row),
    stepRuns: runs.map((run) => ({
      id: run.id,
      stepIndex: run.step_index,
      stepName: run.step_name,
      stepType: run.step_type,
      status: run.status,
      attempt: run.attempt,
      outcome: run.outcome,
      error: run.error,
      startedAt: iso(run.started_at),
      finishedAt: iso(run.finished_at),
    })),
    tasks: tasks.map((task) => ({ id: task.id, title: task.title, type: task.type, status: task.status, workflowStep: task.workflow_step })),
  };
}
