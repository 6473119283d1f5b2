import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { clientIp } from '~/auth/login.server.ts';
import { requirePermission } from '~/auth/permissions.server.ts';
import { taskUpdateSchema } from '~/tasks/schemas.ts';
import { getTask, updateTask } from '~/tasks/tasks.server.ts';
import { apiJson, methodNotAllowed, parseJsonBody, requireUuidParam } from '~/utils/api.server.ts';

/** GET /api/tasks/{taskId}: the task with its entity and workflow links and its history. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requirePermission(request, 'read:all', { api: true });
  return apiJson(await getTask(requireUuidParam(params.taskId)));
}

/** PUT /api/tasks/{taskId} {status, completedAt (ignored: the server sets it), title, description, priority, assignedTo, dueDate, notes} → 200. */
export async function action({ request, params, context }: ActionFunctionArgs) {
  if (request.method !== 'PUT') return methodNotAllowed(['GET', 'PUT']);
  const actor = await requirePermission(request, 'work:task', { api: true });
  const id = requireUuidParam(params.taskId);
  const input = await parseJsonBody(request, taskUpdateSchema);
  return apiJson(await updateTask({ actor, id, input, ip: clientIp(context) }));
}
