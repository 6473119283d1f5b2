import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { clientIp } from '~/auth/login.server.ts';
import { requirePermission } from '~/auth/permissions.server.ts';
import { taskCreateSchema } from '~/tasks/schemas.ts';
import { createTask, listTasks } from '~/tasks/tasks.server.ts';
import { apiJson, listParams, methodNotAllowed, parseJsonBody } from '~/utils/api.server.ts';

/** GET /api/tasks: newest first; ?q (title, description), ?status, ?priority, ?assignee (all|me|unassigned|user id), ?limit, ?offset; X-Total-Count. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requirePermission(request, 'read:all', { api: true });
  const params = new URL(request.url).searchParams;
  const { tasks, total } = await listTasks({
    ...listParams(request),
    status: params.get('status'),
    priority: params.get('priority'),
    assignee: params.get('assignee'),
    actorId: user.id,
  });
  return apiJson(tasks, { headers: { 'X-Total-Count': String(total) } });
}

/** POST /api/tasks {title, description, type, priority, assignedTo, dueDate, entityType, entityId, notes} → 201 (docs/api.md). */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['GET', 'POST']);
  const actor = await requirePermission(request, 'create:task', { api: true });
  const input = await parseJsonBody(request, taskCreateSchema);
  const task = await createTask({ actor, input, ip: clientIp(context) });
  return apiJson(task, { status: 201 });
}
