import { DataTypes, type CreationOptional, type NonAttribute, type Sequelize } from 'sequelize';
import { IdModel, tableOptions, withId } from './base.ts';
import type { User } from './User.ts';

/**
 * The audit trail: who did what to which entity. Append-only: the database
 * refuses UPDATE and DELETE, so instances must never be saved twice or destroyed.
 */
export class ActivityLog extends IdModel<ActivityLog> {
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
      withId({
        action: DataTypes.TEXT,
        entityType: DataTypes.TEXT,
        entityId: DataTypes.UUID,
        userId: DataTypes.UUID,
        ipAddress: DataTypes.TEXT,
        details: DataTypes.JSONB,
        createdAt: DataTypes.DATE,
      }),
      tableOptions(sequelize, 'activity_logs', { updatedAt: false }),
    );
  }
}
