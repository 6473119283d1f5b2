import { DataTypes, type CreationOptional, type NonAttribute, type Sequelize } from 'sequelize';
import { TimestampedModel, tableOptions, withTimestamps } from './base.ts';
import type { RiskCategory, RiskEntityType } from './enums.ts';
import type { User } from './User.ts';

/** A risk score of a client or customer: automatic score plus a recorded manual adjustment. */
export class RiskAssessment extends TimestampedModel<RiskAssessment> {
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

  declare assessor?: NonAttribute<User | null>;
  declare adjuster?: NonAttribute<User | null>;

  static initModel(sequelize: Sequelize) {
    return RiskAssessment.init(
      withTimestamps({
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
      }),
      tableOptions(sequelize, 'risk_assessments'),
    );
  }
}
