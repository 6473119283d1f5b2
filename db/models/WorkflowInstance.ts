import { DataTypes, type CreationOptional, type NonAttribute, type Sequelize } from 'sequelize';
import { IdModel, tableOptions, withId } from './base.ts';
import type { WorkflowEntityType, WorkflowInstanceStatus, WorkflowStartEvent } from './enums.ts';
import type { Task } from './Task.ts';
import type { WorkflowDefinition, WorkflowStep } from './WorkflowDefinition.ts';
import type { WorkflowStepRun } from './WorkflowStepRun.ts';

/** One run of a workflow for one entity. */
export class WorkflowInstance extends IdModel<WorkflowInstance> {
  declare workflowId: string;
  declare status: CreationOptional<WorkflowInstanceStatus>;
  declare entityType: WorkflowEntityType;
  declare entityId: string;
  /** Zero-based index into steps. */
  declare currentStep: CreationOptional<number>;
  /** The definition's steps as they were when the instance started. */
  declare steps: WorkflowStep[];
  declare context: CreationOptional<Record<string, unknown>>;
  declare lastError: string | null;
  declare startedBy: string | null;
  declare startedAt: CreationOptional<Date>;
  /** Set exactly when status is 'completed'. */
  declare completedAt: Date | null;
  declare updatedAt: CreationOptional<Date>;
  /** The business event that started it; null when started by hand or by the registration wizard. */
  declare startEvent: CreationOptional<WorkflowStartEvent | null>;

  declare workflow?: NonAttribute<WorkflowDefinition>;
  declare stepRuns?: NonAttribute<WorkflowStepRun[]>;
  declare tasks?: NonAttribute<Task[]>;

  static initModel(sequelize: Sequelize) {
    return WorkflowInstance.init(
      withId({
        workflowId: DataTypes.UUID,
        status: DataTypes.TEXT,
        entityType: DataTypes.TEXT,
        entityId: DataTypes.UUID,
        currentStep: DataTypes.INTEGER,
        steps: DataTypes.JSONB,
        context: DataTypes.JSONB,
        lastError: DataTypes.TEXT,
        startedBy: DataTypes.UUID,
        startedAt: DataTypes.DATE,
        completedAt: DataTypes.DATE,
        updatedAt: DataTypes.DATE,
        startEvent: DataTypes.TEXT,
      }),
      // The row's creation time is its start time: started_at plays created_at.
      tableOptions(sequelize, 'workflow_instances', { createdAt: 'startedAt' }),
    );
  }
}
