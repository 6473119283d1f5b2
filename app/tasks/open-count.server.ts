import { execute, selectOne } from '../db.server.ts';

/** A user's open tasks: assigned to them, pending or in progress (the same predicate keeps open_task_deltas, in its migration). */
export const OPEN_TASKS_OF_USER = "assigned_to = :userId AND status IN ('pending', 'in_progress')";

const countOfRequest = new WeakMap<Request, { userId: string; count: Promise<number> }>();

/**
 * How many open tasks the user has: the bell's figure in the frame of every
 * page and the total of the dashboard's task list. Given the page's request,
 * a read (GET) counts once for all its loaders, as the signed-in user is read
 * once; anything else counts afresh, since an action may just have changed it.
 */
export function openTaskCount(userId: string, request?: Request): Promise<number> {
  const shared = request && (request.method === 'GET' || request.method === 'HEAD');
  const known = shared ? countOfRequest.get(request) : undefined;
  if (known && known.userId === userId) return known.count;
  // The count the database keeps per user (db/migrations/2026.11.29T08.00.00.workflow-and-task-totals.ts), not a count of the tasks.
  const count = selectOne<{ total: number }>(`SELECT coalesce(sum(tasks), 0)::int AS total FROM open_task_deltas WHERE user_id = :userId`, { userId }).then(
    (row) => row?.total ?? 0,
  );
  if (shared) countOfRequest.set(request, { userId, count });
  return count;
}

/** Folds each user's open-task deltas into one row (the hourly housekeeping), so the sums stay short. */
export async function compactOpenTaskCounts(): Promise<void> {
  await execute('SELECT compact_open_task_counts()');
}
