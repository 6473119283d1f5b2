import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type NonAttribute, type Sequelize } from 'sequelize';
import type { Integration } from './Integration.ts';

/** One call to an integration, for monitoring. */
export class IntegrationLog extends Model<InferAttributes<IntegrationLog>, InferCreationAttributes<IntegrationLog>> {
  declare id: CreationOptional<string>;
  declare integrationId: string;
  declare operation: string;
  declare success: boolean;
  declare durationMs: number;
  declare message: string | null;
  declare createdAt: CreationOptional<Date>;

  declare integration?: NonAttribute<Integration>;

  static initModel(sequelize: Sequelize) {
    return IntegrationLog.init(
      {
        id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
        integrationId: DataTypes.UUID,
        operation: DataTypes.TEXT,
        success: DataTypes.BOOLEAN,
        durationMs: DataTypes.INTEGER,
        message: DataTypes.TEXT,
        createdAt: DataTypes.DATE,
      },
      { sequelize, tableName: 'integration_logs', underscored: true, timestamps: true, updatedAt: false },
    );
  }
}
