import { DataTypes, type CreationOptional, type NonAttribute, type Sequelize } from 'sequelize';
import { IdModel, tableOptions, withId } from './base.ts';
import type { Integration } from './Integration.ts';

/** One call to an integration, for monitoring. */
export class IntegrationLog extends IdModel<IntegrationLog> {
  declare integrationId: string;
  declare operation: string;
  declare success: boolean;
  declare durationMs: number;
  declare message: string | null;
  declare createdAt: CreationOptional<Date>;

  declare integration?: NonAttribute<Integration>;

  static initModel(sequelize: Sequelize) {
    return IntegrationLog.init(
      withId({
        integrationId: DataTypes.UUID,
        operation: DataTypes.TEXT,
        success: DataTypes.BOOLEAN,
        durationMs: DataTypes.INTEGER,
        message: DataTypes.TEXT,
        createdAt: DataTypes.DATE,
      }),
      tableOptions(sequelize, 'integration_logs', { updatedAt: false }),
    );
  }
}
