import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type NonAttribute, type Sequelize } from 'sequelize';
import type { RiskCategory, RiskEntityType } from './enums.ts';
import type { User } from './User.ts';

/** A risk score of a client or customer: automatic score plus a recorded manual adjustment. */
export class RiskAssessment extends Model<InferAttributes<RiskAssessment>, InferCreationAttributes<RiskAssessment>> {
  declare id: CreationOptional<string>;
  declare entityType: RiskEntityType;
  declare entityId: string;
  declare category: RiskCategory;
  /** Must equal clamp(automaticScore + manualAdjustment, 0, 100); the database checks it. */
  declare score: number;
  declare automaticScore: number;
  declare manualAdjustment: CreationOptional<number>;
  /** NULL means the system made it ('system' in the API). */
  declare assessedBy: string | null;
  declare adjustedBy: string | null;
  declare adjustedAt: Date | null;
  /** Factor name → score, or an object with a score. */
  declare factors: CreationOptional<Record<string, unknown>>;
  declare notes: string | null;
  declare hanfaData: Record<string, unknown> | null;
  declare finaData: Record<string, unknown> | null;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;

  declare assessor?: NonAttribute<User | null>;
  declare adjuster?: NonAttribute<User | null>;

  static initModel(sequelize: Sequelize) {
    return RiskAssessment.init(
      {
        id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
        entityType: DataTypes.TEXT,
        entityId: DataTypes.UUID,
        category: DataTypes.TEXT,
        score: DataTypes.INTEGER,
        automaticScore: DataTypes.INTEGER,
        manualAdjustment: DataTypes.INTEGER,
        assessedBy: DataTypes.UUID,
        adjustedBy: DataTypes.UUID,
        adjustedAt: DataTypes.DATE,
        factors: DataTypes.JSONB,
        notes: DataTypes.TEXT,
        hanfaData: DataTypes.JSONB,
        finaData: DataTypes.JSONB,
        createdAt: DataTypes.DATE,
        updatedAt: DataTypes.DATE,
      },
      { sequelize, tableName: 'risk_assessments', underscored: true, timestamps: true },
    );
  }
}
