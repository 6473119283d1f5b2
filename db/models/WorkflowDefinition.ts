import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type NonAttribute, type Sequelize } from 'sequelize';
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
export class WorkflowDefinition extends Model<InferAttributes<WorkflowDefinition>, InferCreationAttributes<WorkflowDefinition>> {
  declare id: CreationOptional<string>;
  declare name: string;
  declare description: string | null;
  declare type: WorkflowType;
  declare steps: WorkflowStep[];
  declare isActive: CreationOptional<boolean>;
  declare createdBy: string | null;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;

  declare instances?: NonAttribute<WorkflowInstance[]>;

  static initModel(sequelize: Sequelize) {
    return WorkflowDefinition.init(
      {
        id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
        name: DataTypes.TEXT,
        description: DataTypes.TEXT,
        type: DataTypes.TEXT,
        steps: DataTypes.JSONB,
        isActive: DataTypes.BOOLEAN,
        createdBy: DataTypes.UUID,
        createdAt: DataTypes.DATE,
        updatedAt: DataTypes.DATE,
      },
      { sequelize, tableName: 'workflow_definitions', underscored: true, timestamps: true },
    );
  }
}
