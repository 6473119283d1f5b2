import { defaulted, instant, integer, primaryKey, tableModel, text } from './columns.ts';

const columns = {
  workerId: primaryKey(text),
  hostname: text,
  pid: integer,
  startedAt: instant,
  lastBeatAt: defaulted(instant),
};

/** Liveness of one worker process, upserted by its heartbeat job. */
export class WorkerHeartbeat extends tableModel(
  'worker_heartbeats',
  columns,
  // started_at is the process's start, not the row's; every beat sets last_beat_at itself.
  { timestamps: false },
) {}
