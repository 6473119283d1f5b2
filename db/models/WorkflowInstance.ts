import type { NonAttribute } from 'sequelize';
import { withId } from './base.ts';
import { defaulted, instant, integer, jsonb, nullable, oneOf, tableModel, text, uuid } from './columns.ts';
import { WORKFLOW_ENTITY_TYPES, WORKFLOW_INSTANCE_STATUSES, WORKFLOW_START_EVENTS } from './enums.ts';
import type { Task } from './Task.ts';
import type { WorkflowDefinition, WorkflowStep } from './WorkflowDefinition.ts';
import type { WorkflowStepRun } from './WorkflowStepRun.ts';

const columns = withId({
  workflowId: uuid,
  status: defaulted(oneOf(WORKFLOW_INSTANCE_STATUSES)),
  entityType: oneOf(WORKFLOW_ENTITY_TYPES),
  entityId: uuid,
  /** Zero-based index into steps. */
  currentStep: defaulted(integer),
  /** The definition's steps as they were when the instance started. */
  steps: jsonb<WorkflowStep[]>(),
  context: defaulted(jsonb<Record<string, unknown>>()),
  lastError: nullable(text),
  startedBy: nullable(uuid),
  startedAt: defaulted(instant),
  /** Set exactly when status is 'completed'. */
  completedAt: nullable(instant),
  updatedAt: defaulted(instant),
  /** The business event that started it; null when started by hand or by the registration wizard. */
  startEvent: defaulted(nullable(oneOf(WORKFLOW_START_EVENTS))),
});

/** One run of a workflow for one entity. */
export class WorkflowInstance extends tableModel(
  'workflow_instances',
  columns,
  // The row's creation time is its start time: started_at plays created_at.
  { createdAt: 'startedAt' },
) {
  declare workflow?: NonAttribute<WorkflowDefinition>;
  declare stepRuns?: NonAttribute<WorkflowStepRun[]>;
  declare tasks?: NonAttribute<Task[]>;
}
