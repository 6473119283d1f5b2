import type { NonAttribute } from 'sequelize';
import { withAudit } from './base.ts';
import { defaulted, instant, integer, nullable, oneOf, tableModel, text, uuid } from './columns.ts';
import { TASK_ENTITY_TYPES, TASK_PRIORITIES, TASK_STATUSES, TASK_TYPES } from './enums.ts';
import type { User } from './User.ts';
import type { WorkflowInstance } from './WorkflowInstance.ts';

const columns = withAudit({
  title: text,
  description: nullable(text),
  type: oneOf(TASK_TYPES),
  priority: defaulted(oneOf(TASK_PRIORITIES)),
  status: defaulted(oneOf(TASK_STATUSES)),
  assignedTo: nullable(uuid),
  /** An instant (timestamptz), unlike an invoice's calendar due date. */
  dueDate: nullable(instant),
  /** Set together with entityId, or neither. */
  entityType: nullable(oneOf(TASK_ENTITY_TYPES)),
  entityId: nullable(uuid),
  notes: nullable(text),
  workflowInstanceId: nullable(uuid),
  workflowStep: nullable(integer),
  /** Set exactly when status is 'completed'. */
  completedAt: nullable(instant),
});

/** A piece of work for staff, created by hand or by a manual workflow step. */
export class Task extends tableModel('tasks', columns) {
  declare assignee?: NonAttribute<User | null>;
  declare creator?: NonAttribute<User | null>;
  declare workflowInstance?: NonAttribute<WorkflowInstance | null>;
}
