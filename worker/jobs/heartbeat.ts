import { getSequelize } from '../../db/connection.ts';
import type { JobHandler, WorkerIdentity } from './define.ts';

/**
 * Liveness of worker processes, shown on monitoring. The worker beats on its
 * own timer (index.ts) so its row is fresh from the first second; this
 * scheduled job beats too, so a broken pg-boss schedule or a worker that no
 * longer takes jobs shows up as a stale row.
 */
export const queue = 'heartbeat';

/** Rows of workers that died without a clean stop are kept this long, then pruned. */
const FORGET_DEAD_WORKERS_AFTER = '1 day';

// The jobs carry no data: whichever worker takes a beat refreshes its own row (an
// upsert, so a retried or duplicate beat is harmless).
export const handler: JobHandler<typeof queue> = async (_jobs, { worker }) => {
  await writeHeartbeat(worker);
  await getSequelize().query(`DELETE FROM worker_heartbeats WHERE last_beat_at < now() - interval '${FORGET_DEAD_WORKERS_AFTER}'`);
};

export async function writeHeartbeat(worker: WorkerIdentity): Promise<void> {
  await getSequelize().query(
    `INSERT INTO worker_heartbeats (worker_id, hostname, pid, started_at, last_beat_at)
     VALUES ($1, $2, $3, $4, now())
     ON CONFLICT (worker_id) DO UPDATE SET last_beat_at = now()`,
    { bind: [worker.workerId, worker.hostname, worker.pid, worker.startedAt.toISOString()] },
  );
}

export async function removeHeartbeat(worker: WorkerIdentity): Promise<void> {
  await getSequelize().query('DELETE FROM worker_heartbeats WHERE worker_id = $1', { bind: [worker.workerId] });
}
