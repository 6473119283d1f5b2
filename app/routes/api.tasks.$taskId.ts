import { taskUpdateSchema } from '~/tasks/schemas.ts';
import { getTask, updateTask } from '~/tasks/tasks.server.ts';
import { apiJson, parseJsonBody, requireUuidParam } from '~/utils/api.server.ts';
import { apiAction, apiLoader } from '~/utils/api-route.server.ts';

/** GET /api/tasks/{taskId}: the task with its entity and workflow links and its history. */
export const loader = apiLoader('read:all', async ({ params }) => {
  return apiJson(await getTask(requireUuidParam(params.taskId)));
});

/** PUT /api/tasks/{taskId} {status, completedAt (ignored: the server sets it), title, description, priority, assignedTo, dueDate, notes} → 200. */
export const action = apiAction({ method: 'PUT', allow: ['GET', 'PUT'], permission: 'work:task' }, async ({ actor, request, params, ip }) => {
  const id = requireUuidParam(params.taskId);
  const input = await parseJsonBody(request, taskUpdateSchema);
  return apiJson(await updateTask({ actor, id, input, ip }));
});
