import type { NonAttribute } from 'sequelize';
import { withId } from './base.ts';
import { defaulted, instant, integer, jsonb, nullable, oneOf, tableModel, text, uuid } from './columns.ts';
import { WORKFLOW_STEP_RUN_STATUSES, WORKFLOW_STEP_TYPES } from './enums.ts';
import type { WorkflowInstance } from './WorkflowInstance.ts';

const columns = withId({
  instanceId: uuid,
  stepIndex: integer,
  stepName: text,
  stepType: oneOf(WORKFLOW_STEP_TYPES),
  status: defaulted(oneOf(WORKFLOW_STEP_RUN_STATUSES)),
  /** 1 for the first try, counting up on retries. */
  attempt: defaulted(integer),
  outcome: nullable(jsonb<Record<string, unknown>>()),
  error: nullable(text),
  startedAt: defaulted(instant),
  finishedAt: nullable(instant),
});

/** One attempt at one step of a workflow instance (the instance's history). */
export class WorkflowStepRun extends tableModel(
  'workflow_step_runs',
  columns,
  // Created when the attempt starts; finished_at is set explicitly, and there is no updated_at.
  { createdAt: 'startedAt', updatedAt: false },
) {
  declare instance?: NonAttribute<WorkflowInstance>;
}
