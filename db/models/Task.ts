import { DataTypes, type CreationOptional, type NonAttribute, type Sequelize } from 'sequelize';
import { AuditedModel, tableOptions, withAudit } from './base.ts';
import type { TaskEntityType, TaskPriority, TaskStatus, TaskType } from './enums.ts';
import type { User } from './User.ts';
import type { WorkflowInstance } from './WorkflowInstance.ts';

/** A piece of work for staff, created by hand or by a manual workflow step. */
export class Task extends AuditedModel<Task> {
  declare title: string;
  declare description: string | null;
  declare type: TaskType;
  declare priority: CreationOptional<TaskPriority>;
  declare status: CreationOptional<TaskStatus>;
  declare assignedTo: string | null;
  /** An instant (timestamptz), unlike an invoice's calendar due date. */
  declare dueDate: Date | null;
  /** Set together with entityId, or neither. */
  declare entityType: TaskEntityType | null;
  declare entityId: string | null;
  declare notes: string | null;
  declare workflowInstanceId: string | null;
  declare workflowStep: number | null;
  /** Set exactly when status is 'completed'. */
  declare completedAt: Date | null;

  declare assignee?: NonAttribute<User | null>;
  declare creator?: NonAttribute<User | null>;
  declare workflowInstance?: NonAttribute<WorkflowInstance | null>;

  static initModel(sequelize: Sequelize) {
    return Task.init(
      withAudit({
        title: DataTypes.TEXT,
        description: DataTypes.TEXT,
        type: DataTypes.TEXT,
        priority: DataTypes.TEXT,
        status: DataTypes.TEXT,
        assignedTo: DataTypes.UUID,
        dueDate: DataTypes.DATE,
        entityType: DataTypes.TEXT,
        entityId: DataTypes.UUID,
        notes: DataTypes.TEXT,
        workflowInstanceId: DataTypes.UUID,
        workflowStep: DataTypes.INTEGER,
        completedAt: DataTypes.DATE,
      }),
      tableOptions(sequelize, 'tasks'),
    );
  }
}
