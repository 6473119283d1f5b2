import { selectOne, selectRows } from '../db.server.ts';
import type { QueueName } from './queues.server.ts';

/**
 * The only SQL over pg-boss's own tables in app/ and worker/, kept in one
 * module because pg-boss 10's API has no equivalent (tests may still look
 * at its rows). Everything else goes through pg-boss: sendJob, and the
 * retry count and limit a worker job reads from its job metadata
 * (`includeMetadata`). What the API lacks:
 * - a count of every state of every queue in one read: getQueueSize counts
 *   one queue's jobs before one state, so the monitoring page would need
 *   three calls per queue, none of them the same snapshot, and a started
 *   pg-boss (whose start installs its schema) in a read-only page;
 * - any search by state, finish time or job data: getJobById needs the id,
 *   and the failed jobs of the last day or the job of a given e-invoice have
 *   none we keep.
 * Written against pg-boss 10's `pgboss.job` (the version in package.json).
 */

export interface QueueDepth {
  name: string;
  created: number;
  retry: number;
  active: number;
  failed24h: number;
}

export interface FailedJobRow {
  id: string;
  name: string;
  completed_on: Date;
  retry_count: number;
  error: string | null;
}

/**
 * Waiting, retrying, running and (last 24 h) failed jobs of each named queue,
 * and the 20 latest failures with their error; null before pg-boss has
 * created its tables (no worker or sender has started yet).
 */
export async function queueDepths(names: string[]): Promise<{ depths: QueueDepth[]; failed: FailedJobRow[] } | null> {
  const present = await selectOne<{ present: boolean }>(`SELECT to_regclass('pgboss.job') IS NOT NULL AS present`);
  if (!present?.present) return null;
  const [depths, failed] = await Promise.all([
    selectRows<QueueDepth>(
      `SELECT q.name,
              count(j.id) FILTER (WHERE j.state = 'created')::int AS created,
              count(j.id) FILTER (WHERE j.state = 'retry')::int AS retry,
              count(j.id) FILTER (WHERE j.state = 'active')::int AS active,
              count(j.id) FILTER (WHERE j.state = 'failed' AND j.completed_on > now() - interval '24 hours')::int AS "failed24h"
         FROM unnest(CAST(ARRAY[:names] AS text[])) AS q(name)
         LEFT JOIN pgboss.job j ON j.name = q.name
        GROUP BY q.name`,
      { names },
    ),
    selectRows<FailedJobRow>(
      `SELECT id, name, completed_on, retry_count,
              left(coalesce(output ->> 'message', CAST(output AS text)), 500) AS error
         FROM pgboss.job
        WHERE state = 'failed' AND completed_on > now() - interval '24 hours'
        ORDER BY completed_on DESC LIMIT 20`,
    ),
  ]);
  return { depths, failed };
}

/**
 * A SQL condition, true when no job of `queue` whose data field `dataKey`
 * equals `idSql` is waiting, retrying or running: for a sweep that re-queues
 * rows whose job was lost. Uses the replacements `:liveJobQueue` and
 * `:liveJobKey`, which it returns.
 */
export function noLiveJobCondition(idSql: string, { queue, dataKey }: { queue: QueueName; dataKey: string }) {
  return {
    sql: `NOT EXISTS (SELECT 1 FROM pgboss.job j
                       WHERE j.name = :liveJobQueue AND j.data ->> :liveJobKey = ${idSql} AND j.state IN ('created', 'retry', 'active'))`,
    replacements: { liveJobQueue: queue, liveJobKey: dataKey },
  };
}
