import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type NonAttribute, type Sequelize } from 'sequelize';
import type { User } from './User.ts';

/**
 * The audit trail: who did what to which entity. Append-only: the database
 * refuses UPDATE and DELETE, so instances must never be saved twice or destroyed.
 */
export class ActivityLog extends Model<InferAttributes<ActivityLog>, InferCreationAttributes<ActivityLog>> {
  declare id: CreationOptional<string>;
  /** A snake_case verb such as 'client_created'. */
  declare action: string;
  declare entityType: string | null;
  declare entityId: string | null;
  declare userId: string | null;
  declare ipAddress: string | null;
  declare details: CreationOptional<Record<string, unknown>>;
  declare createdAt: CreationOptional<Date>;

  declare user?: NonAttribute<User | null>;

  static initModel(sequelize: Sequelize) {
    return ActivityLog.init(
      {
        id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
        action: DataTypes.TEXT,
        entityType: DataTypes.TEXT,
        entityId: DataTypes.UUID,
        userId: DataTypes.UUID,
        ipAddress: DataTypes.TEXT,
        details: DataTypes.JSONB,
        createdAt: DataTypes.DATE,
      },
      { sequelize, tableName: 'activity_logs', underscored: true, timestamps: true, updatedAt: false },
    );
  }
}
