import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { requirePermission } from '~/auth/permissions.server.ts';
import { pendingTasksOf } from '~/tasks/tasks.server.ts';
import { apiJson, listParams, methodNotAllowed } from '~/utils/api.server.ts';

/** GET /api/pending-tasks: the signed-in user's open tasks for the dashboard (docs/domain-model.md Pending task: id, title, description, priority). */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requirePermission(request, 'read:all', { api: true });
  const { limit, offset } = listParams(request);
  const { tasks, total } = await pendingTasksOf(user.id, { limit, offset });
  return apiJson(tasks, { headers: { 'X-Total-Count': String(total) } });
}

export function action(_args: ActionFunctionArgs) {
  return methodNotAllowed(['GET']);
}
