import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { tableOptions } from './base.ts';

/** Liveness of one worker process, upserted by its heartbeat job. */
export class WorkerHeartbeat extends Model<InferAttributes<WorkerHeartbeat>, InferCreationAttributes<WorkerHeartbeat>> {
  declare workerId: string;
  declare hostname: string;
  declare pid: number;
  declare startedAt: Date;
  declare lastBeatAt: CreationOptional<Date>;

  static initModel(sequelize: Sequelize) {
    return WorkerHeartbeat.init(
      {
        workerId: { type: DataTypes.TEXT, primaryKey: true },
        hostname: DataTypes.TEXT,
        pid: DataTypes.INTEGER,
        startedAt: DataTypes.DATE,
        lastBeatAt: DataTypes.DATE,
      },
      // started_at is the process's start, not the row's; every beat sets last_beat_at itself.
      tableOptions(sequelize, 'worker_heartbeats', { timestamps: false }),
    );
  }
}
