import type { NonAttribute } from 'sequelize';
import { withAudit } from './base.ts';
import { boolean, defaulted, jsonb, nullable, oneOf, tableModel, text } from './columns.ts';
import { WORKFLOW_TYPES, type TaskType, type WorkflowStepType } from './enums.ts';
import type { WorkflowInstance } from './WorkflowInstance.ts';

/** One step of a workflow: automated steps run a worker handler, manual ones open a task. */
export interface WorkflowStep {
  name: string;
  type: WorkflowStepType;
  handler?: string;
  taskType?: TaskType;
}

const columns = withAudit({
  name: text,
  description: nullable(text),
  type: oneOf(WORKFLOW_TYPES),
  steps: jsonb<WorkflowStep[]>(),
  isActive: defaulted(boolean),
});

/** An ordered list of steps that instances follow. */
export class WorkflowDefinition extends tableModel('workflow_definitions', columns) {
  declare instances?: NonAttribute<WorkflowInstance[]>;
}
