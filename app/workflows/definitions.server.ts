import { randomUUID } from 'node:crypto';
import type { Transaction } from 'sequelize';
import { logActivity } from '../activity-log.server.ts';
import { assertCan } from '../auth/permissions.server.ts';
import type { Actor } from '../auth/users.server.ts';
import { execute, inTransaction, selectOne, selectRows } from '../db.server.ts';
import { apiError, parseInput } from '../utils/api.server.ts';
import { getHandler, handlerNames } from './handlers/index.server.ts';
import { describeError } from './step-errors.server.ts';
import type { StepOutcome, WorkflowStepDef } from './types.ts';
import { definitionSchema, definitionUpdateSchema, ENTITY_TYPES_OF, WORKFLOW_MESSAGES, type WorkflowType } from './schemas.ts';
import { isUuid } from '../utils/validation.ts';
import type { WorkflowDefinition } from '../../db/models/index.ts';
import type { RowOf } from '../../db/models/rows.ts';
import { iso } from '../utils/api-values.ts';

/**
 * Workflow definitions (docs/domain-model.md): editable name, type, description and
 * ordered steps; activate/deactivate; and a dry run. One active definition
 * per type: activating one deactivates the others of its type, so the
 * definition startWorkflowInstance uses is the one the page shows as active.
 * New definitions start inactive, so saving a draft never changes what new
 * instances run. Running instances keep the steps they started with.
 */
export interface WorkflowDefinitionDto {
  id: string;
  name: string;
  description: string | null;
  type: WorkflowType;
  steps: WorkflowStepDef[];
  isActive: boolean;
  createdBy: string | null;
  createdAt: string;
  updatedAt: string;
}

type DefinitionRow = RowOf<typeof WorkflowDefinition>;

function toDto(row: DefinitionRow): WorkflowDefinitionDto {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    type: row.type,
    steps: row.steps,
    isActive: row.is_active,
    createdBy: row.created_by,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

/** A handler the registry does not know would fail every instance at that step: refuse it when saving. */
function checkHandlers(steps: Array<{ type: string; handler?: string }>) {
  const known = new Set(handlerNames());
  const errors: Record<string, string[]> = {};
  steps.forEach((step, index) => {
    if (step.type === 'automated' && !known.has(step.handler ?? '')) errors[`steps[${index}].handler`] = [WORKFLOW_MESSAGES.handlerUnknown];
  });
  if (Object.keys(errors).length > 0) throw apiError(400, WORKFLOW_MESSAGES.handlerUnknown, { errors: errors });
}

export async function listDefinitions(options: { limit?: number; offset?: number } = {}): Promise<{ items: WorkflowDefinitionDto[]; total: number }> {
  const [rows, count] = await Promise.all([
    selectRows<DefinitionRow>(`SELECT * FROM workflow_definitions ORDER BY is_active DESC, type, updated_at DESC, id LIMIT :limit OFFSET :offset`, {
      limit: options.limit ?? 100,
      offset: options.offset ?? 0,
    }),
    selectOne<{ total: number }>(`SELECT count(*)::int AS total FROM workflow_definitions`),
  ]);
  return { items: rows.map(toDto), total: count?.total ?? 0 };
}

export async function getDefinition(id: string, transaction?: Transaction): Promise<WorkflowDefinitionDto> {
  const row = isUuid(id) ? await selectOne<DefinitionRow>(`SELECT * FROM workflow_definitions WHERE id = :id`, { id }, { transaction }) : null;
  if (!row) throw apiError(404, WORKFLOW_MESSAGES.definitionNotFound);
  return toDto(row);
}

async function deactivateOthers(id: string, type: string, transaction: Transaction) {
  await execute(`UPDATE workflow_definitions SET is_active = false, updated_at = now() WHERE type = :type AND id <> :id AND is_active`, { id, type }, { transaction });
}

export async function createDefinition({ actor, input, ip }: { actor: Actor; input: unknown; ip?: string | null }): Promise<WorkflowDefinitionDto> {
  assertCan(actor, 'edit:workflow');
  const value = parseInput(definitionSchema, input);
  checkHandlers(value.steps);
  return inTransaction(async (transaction) => {
    const { rows } = await execute<DefinitionRow>(
      `INSERT INTO workflow_definitions (name, description, type, steps, is_active, created_by)
       VALUES (:name, :description, :type, CAST(:steps AS jsonb), false, :actorId) RETURNING *`,
      { ...value, steps: JSON.stringify(value.steps), actorId: actor.id },
      { transaction },
    );
    const row = rows[0];
    await logActivity(
      {
        action: 'workflow_definition_created',
        userId: actor.id,
        entityType: 'workflow_definition',
        entityId: row.id,
        ipAddress: ip,
        details: { name: row.name, type: row.type, steps: value.steps.length },
      },
      transaction,
    );
    return toDto(row);
  });
}

/** PUT /api/workflows/{id}: any editable field and/or isActive. */
export async function updateDefinition({ actor, id, input, ip }: { actor: Actor; id: string; input: unknown; ip?: string | null }): Promise<WorkflowDefinitionDto> {
  assertCan(actor, 'edit:workflow');
  const value = parseInput(definitionUpdateSchema, input);
  if (value.steps) checkHandlers(value.steps);
  return inTransaction(async (transaction) => {
    const current = isUuid(id) ? await selectOne<DefinitionRow>(`SELECT * FROM workflow_definitions WHERE id = :id FOR UPDATE`, { id }, { transaction }) : null;
    if (!current) throw apiError(404, WORKFLOW_MESSAGES.definitionNotFound);
    const next = {
      name: value.name ?? current.name,
      description: value.description === undefined ? current.description : value.description,
      type: value.type ?? current.type,
      steps: value.steps ?? current.steps,
      isActive: value.isActive ?? current.is_active,
    };
    const { rows } = await execute<DefinitionRow>(
      `UPDATE workflow_definitions SET name = :name, description = :description, type = :type, steps = CAST(:steps AS jsonb),
              is_active = :isActive, updated_at = now()
        WHERE id = :id RETURNING *`,
      { ...next, steps: JSON.stringify(next.steps), id: current.id },
      { transaction },
    );
    if (next.isActive) await deactivateOthers(current.id, next.type, transaction);
    const changed = Object.keys(value);
    const action =
      changed.length === 1 && value.isActive !== undefined ? (value.isActive ? 'workflow_definition_activated' : 'workflow_definition_deactivated') : 'workflow_definition_updated';
    await logActivity(
      { action, userId: actor.id, entityType: 'workflow_definition', entityId: current.id, ipAddress: ip, details: { name: next.name, type: next.type, changed } },
      transaction,
    );
    return toDto(rows[0]);
  });
}

export const setDefinitionActive = (input: { actor: Actor; id: string; isActive: boolean; ip?: string | null }) =>
  updateDefinition({ actor: input.actor, id: input.id, input: { isActive: input.isActive }, ip: input.ip });

export interface DryRunStep {
  index: number;
  name: string;
  type: 'automated' | 'manual';
  status: 'ok' | 'manual' | 'error' | 'not_run';
  summary: string;
  outcome?: StepOutcome;
  error?: string;
}

export interface DryRunReport {
  definitionId: string;
  entityType: string;
  entityId: string;
  entityName: string | null;
  steps: DryRunStep[];
}

class RollBack extends Error {}

const ENTITY_TABLES: Record<string, { table: string; name: string }> = {
  client: { table: 'clients', name: 'company_name' },
  customer: { table: 'customers', name: 'company_name' },
  invoice: { table: 'invoices', name: 'invoice_number' },
  payment: { table: 'payments', name: 'reference' },
};

/**
 * 'test': runs every step of the definition on a real entity inside one
 * transaction that is always rolled back, so later steps see earlier steps'
 * effects as they would, and nothing stays. Handlers describe rather than
 * send mail (dryRun). The first failing step ends the report, as it would
 * stop an instance. 'edit:workflow' (manager).
 */
export async function testDefinition({ actor, definitionId, entityId }: { actor: Actor; definitionId: string; entityId: string }): Promise<DryRunReport> {
  assertCan(actor, 'edit:workflow');
  const definition = await getDefinition(definitionId);
  if (!isUuid(entityId)) throw apiError(400, WORKFLOW_MESSAGES.entityIdInvalid, { errors: { entityId: [WORKFLOW_MESSAGES.entityIdInvalid] } });
  let entity: { type: string; name: string | null } | null = null;
  for (const type of ENTITY_TYPES_OF[definition.type]) {
    const { table, name } = ENTITY_TABLES[type];
    const row = await selectOne<{ name: string | null }>(`SELECT ${name} AS name FROM ${table} WHERE id = :entityId`, { entityId });
    if (row) {
      entity = { type, name: row.name };
      break;
    }
  }
  if (!entity) throw apiError(404, WORKFLOW_MESSAGES.entityNotFound, { errors: { entityId: [WORKFLOW_MESSAGES.entityNotFound] } });
  const found = entity;

  const steps: DryRunStep[] = [];
  try {
    await inTransaction(async (transaction) => {
      let stopped = false;
      for (const [index, step] of definition.steps.entries()) {
        const base = { index, name: step.name, type: step.type };
        if (stopped) {
          steps.push({ ...base, status: 'not_run', summary: 'not run: an earlier step failed' });
        } else if (step.type === 'manual') {
          steps.push({ ...base, status: 'manual', summary: `would open a ${step.taskType ?? 'manual_review'} task and wait for it` });
        } else {
          const handler = getHandler(step.handler ?? '');
          try {
            if (!handler) throw new Error(`Unknown step handler "${step.handler ?? ''}"`);
            const outcome = await handler({
              instance: { id: randomUUID(), workflowType: definition.type, entityType: found.type, entityId, context: {} },
              step,
              stepIndex: index,
              transaction,
              dryRun: true,
            });
            steps.push({ ...base, status: 'ok', summary: outcome.summary, outcome });
          } catch (error) {
            // A failed statement aborts the transaction: later steps cannot run in it anyway.
            stopped = true;
            const message = await describeError(error);
            steps.push({ ...base, status: 'error', summary: `would fail: ${message}`, error: message });
          }
        }
      }
      throw new RollBack();
    });
  } catch (error) {
    if (!(error instanceof RollBack)) throw error;
  }
  return { definitionId: definition.id, entityType: found.type, entityId, entityName: found.name, steps };
}
