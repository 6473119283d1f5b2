import { DataTypes, type CreationOptional, type NonAttribute, type Sequelize } from 'sequelize';
import { AuditedModel, tableOptions, withAudit } from './base.ts';
import type { TaskType, WorkflowStepType, WorkflowType } from './enums.ts';
import type { WorkflowInstance } from './WorkflowInstance.ts';

/** One step of a workflow: automated steps run a worker handler, manual ones open a task. */
export interface WorkflowStep {
  name: string;
  type: WorkflowStepType;
  handler?: string;
  taskType?: TaskType;
}

/** An ordered list of steps that instances follow. */
export class WorkflowDefinition extends AuditedModel<WorkflowDefinition> {
  declare name: string;
  declare description: string | null;
  declare type: WorkflowType;
  declare steps: WorkflowStep[];
  declare isActive: CreationOptional<boolean>;

  declare instances?: NonAttribute<WorkflowInstance[]>;

  static initModel(sequelize: Sequelize) {
    return WorkflowDefinition.init(
      withAudit({
        name: DataTypes.TEXT,
        description: DataTypes.TEXT,
        type: DataTypes.TEXT,
        steps: DataTypes.JSONB,
        isActive: DataTypes.BOOLEAN,
      }),
      tableOptions(sequelize, 'workflow_definitions'),
    );
  }
}
