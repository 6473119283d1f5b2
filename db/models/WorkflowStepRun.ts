import { DataTypes, type CreationOptional, type NonAttribute, type Sequelize } from 'sequelize';
import { IdModel, tableOptions, withId } from './base.ts';
import type { WorkflowStepRunStatus, WorkflowStepType } from './enums.ts';
import type { WorkflowInstance } from './WorkflowInstance.ts';

/** One attempt at one step of a workflow instance (the instance's history). */
export class WorkflowStepRun extends IdModel<WorkflowStepRun> {
  declare instanceId: string;
  declare stepIndex: number;
  declare stepName: string;
  declare stepType: WorkflowStepType;
  declare status: CreationOptional<WorkflowStepRunStatus>;
  /** 1 for the first try, counting up on retries. */
  declare attempt: CreationOptional<number>;
  declare outcome: Record<string, unknown> | null;
  declare error: string | null;
  declare startedAt: CreationOptional<Date>;
  declare finishedAt: Date | null;

  declare instance?: NonAttribute<WorkflowInstance>;

  static initModel(sequelize: Sequelize) {
    return WorkflowStepRun.init(
      withId({
        instanceId: DataTypes.UUID,
        stepIndex: DataTypes.INTEGER,
        stepName: DataTypes.TEXT,
        stepType: DataTypes.TEXT,
        status: DataTypes.TEXT,
        attempt: DataTypes.INTEGER,
        outcome: DataTypes.JSONB,
        error: DataTypes.TEXT,
        startedAt: DataTypes.DATE,
        finishedAt: DataTypes.DATE,
      }),
      // Created when the attempt starts; finished_at is set explicitly, and there is no updated_at.
      tableOptions(sequelize, 'workflow_step_runs', { createdAt: 'startedAt', updatedAt: false }),
    );
  }
}
