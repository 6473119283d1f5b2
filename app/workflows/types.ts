import type { Transaction } from 'sequelize';
import type { WorkflowType } from './schemas.ts';

/**
 * The shapes the workflow modules share. They live here, below the engine,
 * the instances, the decisions and the step handlers, so that none of those
 * has to import another only for a type (docs/decisions/009-layers-and-imports.md).
 */

/** One step of a definition, copied into each instance it starts. */
export interface WorkflowStepDef {
  name: string;
  type: 'automated' | 'manual';
  handler?: string;
  taskType?: string;
}

/** An automated step: the registered handler it runs (app/workflows/handlers/index.server.ts). */
export function automatedStep(name: string, handler: string): WorkflowStepDef {
  return { name, type: 'automated', handler };
}

/** A manual step: the task it opens and waits for. */
export function manualStep(name: string, taskType: string): WorkflowStepDef {
  return { name, type: 'manual', taskType };
}

/** The pg-boss job of one automated step (queue `workflow-step`). */
export interface StepJob {
  instanceId: string;
  stepIndex: number;
  attempt: number;
}

/** An instance row as the engine holds it, locked, while it moves the instance on. */
export interface LockedInstance {
  id: string;
  workflow_id: string;
  workflow_type: WorkflowType;
  workflow_name: string;
  status: 'running' | 'completed' | 'failed' | 'paused';
  entity_type: string;
  entity_id: string;
  current_step: number;
  steps: WorkflowStepDef[];
  context: Record<string, unknown>;
}

/**
 * What a step handler gets. A handler runs inside the step's transaction and
 * passes it to every domain call, so its effect commits together with the
 * step's 'completed' mark (or not at all). In a dry run (`dryRun`, the
 * transaction is rolled back afterwards) it describes what it would do and
 * must not reach outside the database (no mail).
 */
export interface StepContext {
  instance: { id: string; workflowType: WorkflowType; entityType: string; entityId: string; context: Record<string, unknown> };
  step: WorkflowStepDef;
  stepIndex: number;
  transaction: Transaction;
  dryRun: boolean;
}

/** What a handler did (`summary` plus details): the step run's outcome. */
export interface StepOutcome {
  summary: string;
  [detail: string]: unknown;
}

export type StepHandler = (context: StepContext) => Promise<StepOutcome>;
