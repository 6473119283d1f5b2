import { DataTypes, type CreationOptional, type NonAttribute, type Sequelize } from 'sequelize';
import { TimestampedModel, tableOptions, withTimestamps } from './base.ts';
import type { IntegrationMode, IntegrationStatus, IntegrationType } from './enums.ts';
import type { IntegrationLog } from './IntegrationLog.ts';

/** An external service adapter's configuration and health; one row per type. */
export class Integration extends TimestampedModel<Integration> {
  declare name: string;
  declare description: string | null;
  declare type: IntegrationType;
  declare status: CreationOptional<IntegrationStatus>;
  declare mode: CreationOptional<IntegrationMode>;
  declare isEnabled: CreationOptional<boolean>;
  declare endpoint: string | null;
  /** AES-256-GCM ciphertext of a JSON object of credentials. */
  declare settingsEncrypted: string | null;
  declare lastCheck: Date | null;
  declare lastSync: Date | null;
  declare errorCount: CreationOptional<number>;
  declare lastError: string | null;

  declare logs?: NonAttribute<IntegrationLog[]>;

  static initModel(sequelize: Sequelize) {
    return Integration.init(
      withTimestamps({
        name: DataTypes.TEXT,
        description: DataTypes.TEXT,
        type: DataTypes.TEXT,
        status: DataTypes.TEXT,
        mode: DataTypes.TEXT,
        isEnabled: DataTypes.BOOLEAN,
        endpoint: DataTypes.TEXT,
        settingsEncrypted: DataTypes.TEXT,
        lastCheck: DataTypes.DATE,
        lastSync: DataTypes.DATE,
        errorCount: DataTypes.INTEGER,
        lastError: DataTypes.TEXT,
      }),
      tableOptions(sequelize, 'integrations'),
    );
  }
}
