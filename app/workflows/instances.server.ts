import type { Transaction } from 'sequelize';
import { WORKFLOW_ENTITY_TYPES, WORKFLOW_TYPES, type WorkflowEntityType, type WorkflowType } from '../../db/models/enums.ts';
import { logActivity } from '../activity-log.server.ts';
import type { Actor } from '../auth/users.server.ts';
import { execute, inTransaction, selectOne } from '../db.server.ts';
import { apiError } from '../utils/api.server.ts';

/**
 * Starting a workflow instance (spec §3 Workflow instance; DESIGN §7). This
 * only records the instance at step 0 with the definition's steps copied in;
 * the engine (issue 7) picks up running instances and runs their steps.
 */
export interface WorkflowStepDef {
  name: string;
  type: 'automated' | 'manual';
  handler?: string;
  taskType?: string;
}

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
}

interface InstanceRow {
  id: string;
  workflow_id: string;
  status: WorkflowInstanceDto['status'];
  entity_type: WorkflowEntityType;
  entity_id: string;
  current_step: number;
  steps: WorkflowStepDef[];
  started_by: string | null;
  started_at: Date;
  completed_at: Date | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function startWorkflowInstance(
  input: { type: WorkflowType; entityType: WorkflowEntityType; entityId: string; actor: Actor | null; ip?: string | null },
  options: { transaction?: Transaction } = {},
): Promise<WorkflowInstanceDto> {
  const { type, entityType, entityId, actor } = input;
  // Callers pass typed values, but the API route passes what a user typed: refuse junk before SQL sees it.
  const errors: Record<string, string[]> = {};
  if (!(WORKFLOW_TYPES as readonly string[]).includes(type)) errors.workflowType = ['Unknown workflow type'];
  if (!(WORKFLOW_ENTITY_TYPES as readonly string[]).includes(entityType)) errors.entityType = ['Unknown entity type'];
  if (typeof entityId !== 'string' || !UUID.test(entityId)) errors.entityId = ['Invalid entity id'];
  if (Object.keys(errors).length > 0) throw apiError(400, Object.values(errors)[0][0], errors);

  const run = async (transaction: Transaction) => {
    // Several active definitions of one type can exist while one is being replaced: the newest wins.
    const definition = await selectOne<{ id: string; steps: WorkflowStepDef[] }>(
      `SELECT id, steps FROM workflow_definitions WHERE type = :type AND is_active
        ORDER BY updated_at DESC, created_at DESC LIMIT 1 FOR SHARE`,
      { type },
      { transaction },
    );
    if (!definition) throw apiError(409, `No active workflow definition for ${type}`);

    const { rows } = await execute<InstanceRow>(
      `INSERT INTO workflow_instances (workflow_id, status, entity_type, entity_id, current_step, steps, started_by)
       VALUES (:workflowId, 'running', :entityType, :entityId, 0, CAST(:steps AS jsonb), :startedBy)
       RETURNING id, workflow_id, status, entity_type, entity_id, current_step, steps, started_by, started_at, completed_at`,
      {
        workflowId: definition.id,
        entityType,
        entityId: entityId.toLowerCase(),
        steps: JSON.stringify(definition.steps),
        startedBy: actor?.id ?? null,
      },
      { transaction },
    );
    const row = rows[0];
    await logActivity(
      {
        action: 'workflow_started',
        userId: actor?.id ?? null,
        entityType: 'workflow_instance',
        entityId: row.id,
        ipAddress: input.ip ?? null,
        details: { workflowType: type, workflowId: definition.id, entityType, entityId: row.entity_id },
      },
      transaction,
    );
    return toDto(row, type);
  };
  return options.transaction ? run(options.transaction) : inTransaction(run);
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
    startedAt: new Date(row.started_at).toISOString(),
    completedAt: row.completed_at ? new Date(row.completed_at).toISOString() : null,
  };
}
