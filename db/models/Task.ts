import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type NonAttribute, type Sequelize } from 'sequelize';
import type { TaskEntityType, TaskPriority, TaskStatus, TaskType } from './enums.ts';
import type { User } from './User.ts';
import type { WorkflowInstance } from './WorkflowInstance.ts';

/** A piece of work for staff, created by hand or by a manual workflow step. */
export class Task extends Model<InferAttributes<Task>, InferCreationAttributes<Task>> {
  declare id: CreationOptional<string>;
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
  declare createdBy: string | null;
  declare createdAt: CreationOptional<Date>;
  /** Set exactly when status is 'completed'. */
  declare completedAt: Date | null;
  declare updatedAt: CreationOptional<Date>;

  declare assignee?: NonAttribute<User | null>;
  declare creator?: NonAttribute<User | null>;
  declare workflowInstance?: NonAttribute<WorkflowInstance | null>;

  static initModel(sequelize: Sequelize) {
    return Task.init(
      {
        id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
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
        createdBy: DataTypes.UUID,
        createdAt: DataTypes.DATE,
        completedAt: DataTypes.DATE,
        updatedAt: DataTypes.DATE,
      },
      { sequelize, tableName: 'tasks', underscored: true, timestamps: true },
    );
  }
}
