import { QueryTypes } from 'sequelize';
import { getSequelize } from '../db/connection.ts';
import { iso } from './utils/api-values.ts';

/** A worker that has not beaten for this long is reported as not running. */
const WORKER_STALE_AFTER_SECONDS = 120;

export interface SystemStatus {
  version: string;
  databaseConnected: boolean;
  workerLastBeatAt: string | null;
  workerRunning: boolean;
}

/** Settings' system card: the real version, whether the database answers, whether a worker beats. */
export async function getSystemStatus(version: string): Promise<SystemStatus> {
  try {
    const [row] = await getSequelize().query<{ last_beat_at: Date | null; fresh: boolean }>(
      `SELECT max(last_beat_at) AS last_beat_at,
              coalesce(max(last_beat_at) > now() - make_interval(secs => :stale), false) AS fresh
         FROM worker_heartbeats`,
      { replacements: { stale: WORKER_STALE_AFTER_SECONDS }, type: QueryTypes.SELECT },
    );
    return {
      version,
      databaseConnected: true,
      workerLastBeatAt: iso(row.last_beat_at),
      workerRunning: row.fresh,
    };
  } catch {
    return { version, databaseConnected: false, workerLastBeatAt: null, workerRunning: false };
  }
}
