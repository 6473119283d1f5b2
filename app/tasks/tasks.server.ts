import type { Transaction } from 'sequelize';
import { logActivity } from '../activity-log.server.ts';
import { assertCan } from '../auth/permissions.server.ts';
import type { Actor } from '../auth/users.server.ts';
import { execute, inTransaction, selectOne, selectPage, selectRows } from '../db.server.ts';
import { apiError, parseInput } from '../utils/api.server.ts';
import { OPEN_TASKS_OF_USER, openTaskCount } from './open-count.server.ts';
import { isDecisionStep, onTaskCompleted } from '../workflows/engine.server.ts';
import type { WorkflowStepDef } from '../workflows/types.ts';
import {
  ASSIGNEE_FILTERS,
  TASK_EDIT_FIELDS,
  TASK_ERRORS,
  TASK_PRIORITIES,
  TASK_STATUSES,
  TASK_TABS,
  taskCreateSchema,
  taskUpdateSchema,
  type TaskCreateInput,
  type TaskEditField,
  type TaskEntityType,
  type TaskPriority,
  type TaskStatus,
  type TaskTab,
  type TaskType,
  type TaskUpdateInput,
} from './schemas.ts';
import { isUuid } from '../utils/validation.ts';
import { iso } from '../utils/api-values.ts';
import type { ActivityLog, Task, User, WorkflowDefinition, WorkflowInstance } from '../../db/models/index.ts';
import type { RowOf } from '../../db/models/rows.ts';
import { sqlUserName } from '../auth/user-record.server.ts';
import { pageBounds } from '../utils/list-url.ts';

/**
 * Tasks (docs/domain-model.md, docs/lifecycle.md#tasks): creating, working
 * (start → complete, or cancel), editing while open, assigning, the /tasks
 * list with its tab counts, and the signed-in user's open tasks for the
 * dashboard. Each write locks the row, writes the change and its activity
 * rows in one transaction; completing a workflow's manual task advances its
 * instance in that same transaction.
 */
export type { TaskCreateInput, TaskUpdateInput };

export interface TaskDto {
  id: string;
  title: string;
  description: string | null;
  type: TaskType;
  priority: TaskPriority;
  status: TaskStatus;
  assignedTo: string | null;
  assignedToName: string | null;
  dueDate: string | null;
  createdAt: string;
  completedAt: string | null;
  updatedAt: string;
  entityType: TaskEntityType | null;
  entityId: string | null;
  /** What the entity is called (company name, invoice number, document name); null when it is gone. */
  entityLabel: string | null;
  /** Its page in the app, when it has one. */
  entityHref: string | null;
  notes: string | null;
  createdBy: string | null;
  workflowInstanceId: string | null;
  workflowStep: number | null;
  workflowStepName: string | null;
  /** How many steps the instance has, for 'step 4 of 6'. */
  workflowStepCount: number | null;
  workflowName: string | null;
  /** Past its due date and still open (docs/screens.md late badge). */
  isLate: boolean;
  /**
   * The record whose decision closes this open task (verify or reject the
   * invoice, confirm or fail the payment), while it is undecided; null for a
   * task that is completed by hand. See decisionAwaited.
   */
  awaitsDecision: 'invoice' | 'payment' | null;
}

export interface TaskDetailDto extends TaskDto {
  createdByName: string | null;
  workflow: {
    instanceId: string;
    name: string;
    type: string;
    status: string;
    stepIndex: number | null;
    stepName: string | null;
    stepCount: number;
    href: string;
  } | null;
  history: { action: string; userName: string | null; details: Record<string, unknown>; createdAt: string }[];
}

/** Dashboard 'my tasks' (docs/domain-model.md Pending task). */
export interface PendingTaskDto {
  id: string;
  title: string;
  description: string | null;
  priority: TaskPriority;
}

type TaskRow = RowOf<typeof Task> & {
  assigned_to_name: string | null;
  entity_label: string | null;
  entity_link_id: string | null;
  workflow_step_name: string | null;
  workflow_step_count: number | null;
  workflow_name: RowOf<typeof WorkflowDefinition>['name'] | null;
  workflow_type: RowOf<typeof WorkflowDefinition>['type'] | null;
  workflow_step_def: WorkflowStepDef | null;
  /** For an invoice or payment task: whether that record is still pending. */
  entity_pending: boolean | null;
  is_late: boolean;
};

type BareTaskRow = Pick<
  TaskRow,
  'id' | 'title' | 'description' | 'type' | 'priority' | 'status' | 'assigned_to' | 'due_date' | 'notes' | 'workflow_instance_id' | 'workflow_step' | 'entity_type' | 'entity_id'
>;

const OPEN_STATUSES: readonly TaskStatus[] = ['pending', 'in_progress'];

/** The row with the names and links the cards show, computed in SQL. */
const TASK_SELECT = `
  SELECT t.id, t.title, t.description, t.type, t.priority, t.status, t.assigned_to,
         ${sqlUserName('u')} AS assigned_to_name,
         t.due_date, t.created_at, t.completed_at, t.updated_at, t.entity_type, t.entity_id, t.notes, t.created_by,
         t.workflow_instance_id, t.workflow_step,
         wi.steps -> t.workflow_step ->> 'name' AS workflow_step_name,
         jsonb_array_length(wi.steps) AS workflow_step_count,
         wd.name AS workflow_name, wd.type AS workflow_type, wi.steps -> t.workflow_step AS workflow_step_def,
         CASE t.entity_type
           WHEN 'invoice' THEN (SELECT status = 'pending' FROM invoices WHERE id = t.entity_id)
           WHEN 'payment' THEN (SELECT status = 'pending' FROM payments WHERE id = t.entity_id)
         END AS entity_pending,
         (t.due_date < now() AND t.status IN ('pending', 'in_progress')) AS is_late,
         CASE t.entity_type
           WHEN 'client' THEN (SELECT company_name FROM clients WHERE id = t.entity_id)
           WHEN 'customer' THEN (SELECT company_name FROM customers WHERE id = t.entity_id)
           WHEN 'invoice' THEN (SELECT invoice_number FROM invoices WHERE id = t.entity_id)
           WHEN 'payment' THEN (SELECT i.invoice_number FROM payments p JOIN invoices i ON i.id = p.invoice_id WHERE p.id = t.entity_id)
           WHEN 'credit_limit_request' THEN (SELECT c.company_name FROM credit_limit_requests r JOIN clients c ON c.id = r.client_id WHERE r.id = t.entity_id)
           WHEN 'document' THEN (SELECT name FROM documents WHERE id = t.entity_id)
         END AS entity_label,
         -- A payment is shown on its invoice's page, a limit request on its client's.
         CASE t.entity_type
           WHEN 'payment' THEN (SELECT invoice_id FROM payments WHERE id = t.entity_id)
           WHEN 'credit_limit_request' THEN (SELECT client_id FROM credit_limit_requests WHERE id = t.entity_id)
           ELSE t.entity_id
         END AS entity_link_id
    FROM tasks t
    LEFT JOIN users u ON u.id = t.assigned_to
    LEFT JOIN workflow_instances wi ON wi.id = t.workflow_instance_id
    LEFT JOIN workflow_definitions wd ON wd.id = wi.workflow_id`;

function entityHref(row: TaskRow): string | null {
  if (!row.entity_type || !row.entity_link_id || row.entity_label === null) return null;
  switch (row.entity_type) {
    case 'client':
    case 'credit_limit_request':
      return `/clients/${row.entity_link_id}`;
    case 'customer':
      return `/customers/${row.entity_link_id}`;
    case 'invoice':
    case 'payment':
      return `/invoices/${row.entity_link_id}`;
    case 'document':
      return `/api/documents/${row.entity_link_id}/view`;
    default:
      return null;
  }
}

export function toTaskDto(row: TaskRow): TaskDto {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    type: row.type,
    priority: row.priority,
    status: row.status,
    assignedTo: row.assigned_to,
    assignedToName: row.assigned_to_name,
    dueDate: iso(row.due_date),
    createdAt: iso(row.created_at),
    completedAt: iso(row.completed_at),
    updatedAt: iso(row.updated_at),
    entityType: row.entity_type,
    entityId: row.entity_id,
    entityLabel: row.entity_label,
    entityHref: entityHref(row),
    notes: row.notes,
    createdBy: row.created_by,
    workflowInstanceId: row.workflow_instance_id,
    workflowStep: row.workflow_step,
    workflowStepName: row.workflow_step_name,
    workflowStepCount: row.workflow_step_count,
    workflowName: row.workflow_name,
    isLate: row.is_late,
    awaitsDecision: awaitedDecision(row),
  };
}

/**
 * An open task of the manual review of an invoice verification, or of the
 * confirmation of a payment processing, whose invoice or payment is still
 * pending: the manager's decision on that record closes it
 * (app/workflows/decisions.server.ts), not completing it by hand.
 */
function awaitedDecision(row: TaskRow): TaskDto['awaitsDecision'] {
  if (!OPEN_STATUSES.includes(row.status) || !row.entity_pending || !row.workflow_type) return null;
  const expected = row.entity_type === 'invoice' ? 'invoice_verification' : row.entity_type === 'payment' ? 'payment_processing' : null;
  if (row.workflow_type !== expected || !isDecisionStep(row.workflow_type, row.workflow_step_def ?? undefined)) return null;
  return row.entity_type as 'invoice' | 'payment';
}

async function readTask(id: string, transaction?: Transaction): Promise<TaskRow | null> {
  return selectOne<TaskRow>(`${TASK_SELECT} WHERE t.id = :id`, { id }, { transaction });
}

/** Only an active staff user can be given a task. */
async function assertAssignable(userId: string | null | undefined, transaction: Transaction): Promise<void> {
  if (!userId) return;
  const user = await selectOne<RowOf<typeof User, 'id'>>('SELECT id FROM users WHERE id = :userId AND is_active', { userId }, { transaction });
  if (!user) throw apiError(400, TASK_ERRORS.unknownAssignee, { errors: { assignedTo: [TASK_ERRORS.unknownAssignee] } });
}

const ENTITY_TABLES: Record<TaskEntityType, string> = {
  client: 'clients',
  customer: 'customers',
  invoice: 'invoices',
  payment: 'payments',
  credit_limit_request: 'credit_limit_requests',
  document: 'documents',
};

async function assertEntityExists(type: TaskEntityType | undefined, id: string | undefined, transaction: Transaction): Promise<void> {
  if (!type || !id) return;
  // The table name comes from the fixed map above, never from input.
  const found = await selectOne<{ id: string }>(`SELECT id FROM ${ENTITY_TABLES[type]} WHERE id = :id`, { id }, { transaction });
  if (!found) throw apiError(400, TASK_ERRORS.unknownEntity, { errors: { entityId: [TASK_ERRORS.unknownEntity] } });
}

/**
 * POST /api/tasks and the new-task dialog. `actor` null is the system (the
 * workflow engine opening a manual step's task, passing `workflow`). With
 * `options.transaction` the caller's transaction is used. Throws 400, 403.
 */
export async function createTask(
  { actor, input, ip, workflow }: { actor: Actor | null; input: TaskCreateInput; ip?: string | null; workflow?: { instanceId: string; step: number } },
  options: { transaction?: Transaction } = {},
): Promise<TaskDto> {
  if (actor) assertCan(actor, 'create:task');
  const data = parseInput(taskCreateSchema, input);
  const run = async (transaction: Transaction) => {
    await assertAssignable(data.assignedTo, transaction);
    await assertEntityExists(data.entityType, data.entityId, transaction);
    const { rows } = await execute<{ id: string }>(
      `INSERT INTO tasks (title, description, type, priority, assigned_to, due_date, entity_type, entity_id, notes,
                          workflow_instance_id, workflow_step, created_by)
       VALUES (:title, :description, :type, :priority, :assignedTo, :dueDate, :entityType, :entityId, :notes,
               :workflowInstanceId, :workflowStep, :createdBy)
       RETURNING id`,
      {
        title: data.title,
        description: data.description ?? null,
        type: data.type,
        priority: data.priority,
        assignedTo: data.assignedTo ?? null,
        dueDate: data.dueDate ?? null,
        entityType: data.entityType ?? null,
        entityId: data.entityId ?? null,
        notes: data.notes ?? null,
        workflowInstanceId: workflow?.instanceId ?? null,
        workflowStep: workflow?.step ?? null,
        createdBy: actor?.id ?? null,
      },
      { transaction },
    );
    const id = rows[0].id;
    await logActivity(
      {
        action: 'task_created',
        userId: actor?.id ?? null,
        entityType: 'task',
        entityId: id,
        ipAddress: ip,
        details: { title: data.title, type: data.type, priority: data.priority, assignedTo: data.assignedTo ?? null },
      },
      transaction,
    );
    return toTaskDto((await readTask(id, transaction)) as TaskRow);
  };
  return inTransaction(run, options.transaction);
}

/** Which status change is allowed from where (docs/lifecycle.md#tasks), and the refusal of each. */
const TRANSITIONS: Record<TaskStatus, { from: readonly TaskStatus[]; action: string; refusal: string }> = {
  in_progress: { from: ['pending'], action: 'task_started', refusal: TASK_ERRORS.cannotStart },
  completed: { from: ['in_progress'], action: 'task_completed', refusal: TASK_ERRORS.cannotComplete },
  cancelled: { from: ['pending', 'in_progress'], action: 'task_cancelled', refusal: TASK_ERRORS.cannotCancel },
  pending: { from: [], action: '', refusal: TASK_ERRORS.cannotReopen },
};

const COLUMNS: Record<TaskEditField, string> = {
  title: 'title',
  description: 'description',
  priority: 'priority',
  assignedTo: 'assigned_to',
  dueDate: 'due_date',
  notes: 'notes',
};

function currentValue(row: BareTaskRow, field: TaskEditField): string | null {
  switch (field) {
    case 'assignedTo':
      return row.assigned_to;
    case 'dueDate':
      return iso(row.due_date);
    default:
      return row[field];
  }
}

/**
 * PUT /api/tasks/{taskId}: a status change (start: pending → in_progress;
 * complete: in_progress → completed, with completed_at set here and any sent
 * `completedAt` ignored; cancel: open → cancelled) and/or edits of title,
 * description, priority, assignee, due date and notes, which only an open
 * task takes. Starting an unassigned task gives it to the one who starts it.
 * Logs task_updated (old → new), task_assigned and the transition's row.
 * Throws 400, 403, 404, 409 (the state does not allow it; nothing changes).
 */
export async function updateTask({ actor, id, input, ip }: { actor: Actor; id: string; input: TaskUpdateInput; ip?: string | null }): Promise<TaskDto> {
  assertCan(actor, 'work:task');
  const data = parseInput(taskUpdateSchema, input);
  const edits = TASK_EDIT_FIELDS.filter((field) => data[field] !== undefined);
  if (data.status === undefined && edits.length === 0) throw apiError(400, TASK_ERRORS.nothingToUpdate, { errors: { status: [TASK_ERRORS.nothingToUpdate] } });

  // An id that is no UUID names no task (a form may post anything): 404, not a SQL error.
  if (!isUuid(id)) throw apiError(404, TASK_ERRORS.notFound);
  return inTransaction(async (transaction) => {
    const row = await selectOne<BareTaskRow>(
      `SELECT id, title, description, type, priority, status, assigned_to, due_date, notes, workflow_instance_id, workflow_step, entity_type, entity_id
         FROM tasks WHERE id = :id FOR UPDATE`,
      { id },
      { transaction },
    );
    if (!row) throw apiError(404, TASK_ERRORS.notFound);

    // Sending the current status with edits is an edit; sending it alone asks for a change that cannot happen.
    const target = data.status !== undefined && (data.status !== row.status || edits.length === 0) ? data.status : undefined;
    if (target !== undefined && !TRANSITIONS[target].from.includes(row.status)) throw apiError(409, TRANSITIONS[target].refusal);
    if (edits.length > 0 && !OPEN_STATUSES.includes(row.status)) throw apiError(409, TASK_ERRORS.notOpen);
    const awaited = target === 'completed' || target === 'cancelled' ? await decisionAwaited(row, transaction) : null;
    if (awaited) throw apiError(409, awaited, { errors: { status: [awaited] } });

    const values: Partial<Record<TaskEditField, string | null>> = {};
    for (const field of edits) values[field] = data[field] as string | null;
    if (target === 'in_progress' && !row.assigned_to && values.assignedTo === undefined) values.assignedTo = actor.id;
    if (values.assignedTo !== undefined && values.assignedTo !== row.assigned_to) await assertAssignable(values.assignedTo, transaction);

    const changes: Record<string, { old: string | null; new: string | null }> = {};
    for (const [field, value] of Object.entries(values) as [TaskEditField, string | null][]) {
      const old = currentValue(row, field);
      if (old !== value) changes[field] = { old, new: value };
    }

    const sets: string[] = [];
    const replacements: Record<string, unknown> = { id };
    for (const field of Object.keys(changes) as TaskEditField[]) {
      sets.push(`${COLUMNS[field]} = :${field}`);
      replacements[field] = values[field];
    }
    if (target !== undefined) {
      sets.push('status = :status');
      replacements.status = target;
      // docs/lifecycle.md#tasks: the server's clock, whatever the caller sent as completedAt.
      if (target === 'completed') sets.push('completed_at = now()');
    }
    if (sets.length > 0) await execute(`UPDATE tasks SET ${sets.join(', ')} WHERE id = :id`, replacements, { transaction });

    const log = (action: string, details: Record<string, unknown>) =>
      logActivity({ action, userId: actor.id, entityType: 'task', entityId: id, ipAddress: ip, details: { title: row.title, ...details } }, transaction);
    const { assignedTo: assignment, ...otherChanges } = changes;
    if (Object.keys(otherChanges).length > 0) await log('task_updated', { changes: otherChanges });
    if (assignment) await log('task_assigned', { from: assignment.old, to: assignment.new });
    if (target !== undefined) await log(TRANSITIONS[target].action, { from: row.status, to: target });

    if (target === 'completed' && row.workflow_instance_id) {
      // In this transaction: if the instance cannot advance, the task stays in progress.
      await onTaskCompleted({ taskId: id, actor }, { transaction });
    }
    return toTaskDto((await readTask(id, transaction)) as TaskRow);
  });
}

/**
 * A task that stands for a decision on its record is closed by that decision,
 * not by completing or cancelling it (app/workflows/decisions.server.ts): a
 * KYC task of a client still under review (app/onboarding/kyc-decision.server.ts),
 * the manual review of an invoice verification while the invoice is pending,
 * the confirmation step of a payment processing while the payment is pending.
 * Closing it by hand would decide nothing and leave the workflow's record
 * undecided. Returns the refusal, or null.
 */
async function decisionAwaited(row: BareTaskRow, transaction: Transaction): Promise<string | null> {
  if (!row.entity_id) return null;
  if (row.type === 'kyc_verification' && row.entity_type === 'client') {
    const client = await selectOne<{ undecided: boolean }>(
      `SELECT onboarding_status IN ('pending', 'in_progress') AS undecided FROM clients WHERE id = :id`,
      { id: row.entity_id },
      { transaction },
    );
    return client?.undecided ? TASK_ERRORS.decideKyc : null;
  }
  const full = await readTask(row.id, transaction);
  const awaited = full ? awaitedDecision(full) : null;
  return awaited === 'invoice' ? TASK_ERRORS.decideInvoice : awaited === 'payment' ? TASK_ERRORS.decidePayment : null;
}

/** The assign form: give an open task to a user, or to nobody (`null`). Throws 400, 403, 404, 409. */
export async function assignTask({ actor, id, assignedTo, ip }: { actor: Actor; id: string; assignedTo: string | null; ip?: string | null }): Promise<TaskDto> {
  return updateTask({ actor, id, input: { assignedTo: assignedTo ?? '' }, ip });
}

export interface TaskListOptions {
  q?: string | null;
  /** A page tab (all, pending, in_progress, completed) or, through the API, 'cancelled'. */
  status?: string | null;
  priority?: string | null;
  /** all, me, unassigned, or a user's id. */
  assignee?: string | null;
  actorId: string;
  limit?: number;
  offset?: number;
}

export type TaskTabCounts = Record<TaskTab, number>;

/** The WHERE conditions of every filter but the status (the tabs count across statuses). */
function filterConditions(options: TaskListOptions, replacements: Record<string, unknown>): string[] {
  const where: string[] = [];
  const q = options.q?.trim();
  if (q) {
    replacements.q = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    where.push('(t.title ILIKE :q OR t.description ILIKE :q)');
  }
  if (options.priority && options.priority !== 'all') {
    if (!(TASK_PRIORITIES as readonly string[]).includes(options.priority)) {
      throw apiError(400, TASK_ERRORS.invalidPriority, { errors: { priority: [TASK_ERRORS.invalidPriority] } });
    }
    replacements.priority = options.priority;
    where.push('t.priority = :priority');
  }
  const assignee = options.assignee ?? 'all';
  if (assignee === 'me') {
    replacements.actorId = options.actorId;
    where.push('t.assigned_to = :actorId');
  } else if (assignee === 'unassigned') {
    where.push('t.assigned_to IS NULL');
  } else if (isUuid(assignee)) {
    replacements.assignee = assignee.toLowerCase();
    where.push('t.assigned_to = :assignee');
  } else if (!(ASSIGNEE_FILTERS as readonly string[]).includes(assignee)) {
    throw apiError(400, TASK_ERRORS.invalidAssignee, { errors: { assignee: [TASK_ERRORS.invalidAssignee] } });
  }
  return where;
}

/** GET /api/tasks and /tasks: newest first, the page and the full count of the same filter. */
export async function listTasks(options: TaskListOptions): Promise<{ tasks: TaskDto[]; total: number }> {
  const replacements: Record<string, unknown> = {};
  const where = filterConditions(options, replacements);
  if (options.status && options.status !== 'all') {
    if (!(TASK_STATUSES as readonly string[]).includes(options.status)) {
      throw apiError(400, TASK_ERRORS.invalidStatus, { errors: { status: [TASK_ERRORS.invalidStatus] } });
    }
    replacements.status = options.status;
    where.push('t.status = :status');
  }
  const clause = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
  const { limit, offset } = pageBounds(options);
  const { rows, total } = await selectPage<TaskRow>(
    `${TASK_SELECT} ${clause} ORDER BY t.created_at DESC, t.id DESC LIMIT :limit OFFSET :offset`,
    `SELECT count(*)::int AS total FROM tasks t ${clause}`,
    { ...replacements, limit, offset },
  );
  return { tasks: rows.map(toTaskDto), total };
}

/** The /tasks tabs' counts under the same search, priority and assignee filters, in one SQL pass. */
export async function taskTabCounts(options: Omit<TaskListOptions, 'status' | 'limit' | 'offset'>): Promise<TaskTabCounts> {
  const replacements: Record<string, unknown> = {};
  const where = filterConditions(options, replacements);
  const row = await selectOne<TaskTabCounts>(
    `SELECT count(*)::int AS "all",
            count(*) FILTER (WHERE t.status = 'pending')::int AS pending,
            count(*) FILTER (WHERE t.status = 'in_progress')::int AS in_progress,
            count(*) FILTER (WHERE t.status = 'completed')::int AS completed
       FROM tasks t ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}`,
    replacements,
  );
  return Object.fromEntries(TASK_TABS.map((tab) => [tab, row?.[tab] ?? 0])) as TaskTabCounts;
}

/**
 * GET /api/pending-tasks: the user's open tasks (pending and in progress,
 * assigned to them), the latest due date first and undated ones last.
 */
export async function pendingTasksOf(userId: string, options: { limit?: number; offset?: number; request?: Request } = {}): Promise<{ tasks: PendingTaskDto[]; total: number }> {
  const { limit, offset } = pageBounds(options);
  const [tasks, total] = await Promise.all([
    selectRows<PendingTaskDto>(
      `SELECT id, title, description, priority FROM tasks WHERE ${OPEN_TASKS_OF_USER}
        ORDER BY due_date DESC NULLS LAST, created_at DESC, id DESC LIMIT :limit OFFSET :offset`,
      { userId, limit, offset },
    ),
    // The page's frame counts the same for its bell: with the request, one count serves both.
    openTaskCount(userId, options.request),
  ]);
  return { tasks, total };
}

/** GET /api/tasks/{taskId} and the details view: the task, its links and its history. Throws 404. */
export async function getTask(id: string): Promise<TaskDetailDto> {
  const row = isUuid(id) ? await readTask(id) : null;
  if (!row) throw apiError(404, TASK_ERRORS.notFound);
  const [extra, history] = await Promise.all([
    selectOne<{
      created_by_name: string | null;
      instance_status: RowOf<typeof WorkflowInstance>['status'] | null;
      workflow_type: RowOf<typeof WorkflowDefinition>['type'] | null;
    }>(
      `SELECT ${sqlUserName('cu')} AS created_by_name,
              wi.status AS instance_status, wd.type AS workflow_type
         FROM tasks t
         LEFT JOIN users cu ON cu.id = t.created_by
         LEFT JOIN workflow_instances wi ON wi.id = t.workflow_instance_id
         LEFT JOIN workflow_definitions wd ON wd.id = wi.workflow_id
        WHERE t.id = :id`,
      { id },
    ),
    selectRows<RowOf<typeof ActivityLog, 'action' | 'details' | 'created_at'> & { user_name: string | null }>(
      `SELECT a.action, ${sqlUserName('u')} AS user_name, a.details, a.created_at
         FROM activity_logs a LEFT JOIN users u ON u.id = a.user_id
        WHERE a.entity_type = 'task' AND a.entity_id = :id
        ORDER BY a.created_at DESC, a.id DESC LIMIT 50`,
      { id },
    ),
  ]);
  const task = toTaskDto(row);
  return {
    ...task,
    createdByName: extra?.created_by_name ?? null,
    workflow:
      row.workflow_instance_id && extra?.instance_status
        ? {
            instanceId: row.workflow_instance_id,
            name: row.workflow_name ?? '',
            type: extra.workflow_type ?? '',
            status: extra.instance_status,
            stepIndex: row.workflow_step,
            stepName: row.workflow_step_name,
            stepCount: row.workflow_step_count ?? 0,
            href: '/workflows?tab=instances',
          }
        : null,
    history: history.map((entry) => ({ action: entry.action, userName: entry.user_name, details: entry.details, createdAt: iso(entry.created_at) })),
  };
}

/** Staff who can be given a task, for the assignee selects. */
export async function assignableUsers(): Promise<{ id: string; name: string }[]> {
  return selectRows<{ id: string; name: string }>(
    `SELECT id, btrim(concat_ws(' ', first_name, last_name)) AS name FROM users WHERE is_active
      ORDER BY lower(first_name), lower(last_name), id LIMIT 500`,
  );
}
