import { selectOne } from '../db.server.ts';

/** A user's open tasks: assigned to them, pending or in progress. */
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
  const count = selectOne<{ total: number }>(`SELECT count(*)::int AS total FROM tasks WHERE ${OPEN_TASKS_OF_USER}`, { userId }).then((row) => row?.total ?? 0);
  if (shared) countOfRequest.set(request, { userId, count });
  return count;
}
