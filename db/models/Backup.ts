import { DataTypes, type CreationOptional, type NonAttribute, type Sequelize } from 'sequelize';
import { TimestampedModel, tableOptions, withTimestamps } from './base.ts';
import type { BackupStatus } from './enums.ts';
import type { User } from './User.ts';

/** A database backup file in DATA_DIR/backups, written by the worker's backup job. */
export class Backup extends TimestampedModel<Backup> {
  declare status: CreationOptional<BackupStatus>;
  declare fileName: string | null;
  /** Bytes (bigint: a number, as db/connection.ts parses INT8). */
  declare size: number | null;
  declare sha256: string | null;
  declare tableCount: number | null;
  declare rowCount: number | null;
  declare error: string | null;
  declare requestedBy: string | null;
  declare startedAt: Date | null;
  declare completedAt: Date | null;

  declare requester?: NonAttribute<User>;

  static initModel(sequelize: Sequelize) {
    return Backup.init(
      withTimestamps({
        status: DataTypes.TEXT,
        fileName: DataTypes.TEXT,
        size: DataTypes.BIGINT,
        sha256: DataTypes.CHAR(64),
        tableCount: DataTypes.INTEGER,
        rowCount: DataTypes.BIGINT,
        error: DataTypes.TEXT,
        requestedBy: DataTypes.UUID,
        startedAt: DataTypes.DATE,
        completedAt: DataTypes.DATE,
      }),
      tableOptions(sequelize, 'backups'),
    );
  }
}
