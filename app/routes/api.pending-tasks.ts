import type { ActionFunctionArgs } from '@remix-run/node';
import { pendingTasksOf } from '~/tasks/tasks.server.ts';
import { listParams, methodNotAllowed } from '~/utils/api.server.ts';
import { apiLoader, apiList } from '~/utils/api-route.server.ts';

/** GET /api/pending-tasks: the signed-in user's open tasks for the dashboard (docs/domain-model.md Pending task: id, title, description, priority). */
export const loader = apiLoader('read:all', async ({ actor: user, request }) => {
  const { limit, offset } = listParams(request);
  const { tasks, total } = await pendingTasksOf(user.id, { limit, offset });
  return apiList(tasks, total);
});

export function action(_args: ActionFunctionArgs) {
  return methodNotAllowed(['GET']);
}
