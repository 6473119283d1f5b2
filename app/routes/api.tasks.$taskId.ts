import { taskUpdateSchema } from '~/tasks/schemas.ts';
import { getTask, updateTask } from '~/tasks/tasks.server.ts';
import { apiJson, requireUuidParam } from '~/utils/api.server.ts';
import { apiLoader, apiUpdate } from '~/utils/api-route.server.ts';

/** GET /api/tasks/{taskId}: the task with its entity and workflow links and its history. */
export const loader = apiLoader('read:all', async ({ params }) => {
  return apiJson(await getTask(requireUuidParam(params.taskId)));
});

/** PUT /api/tasks/{taskId} {status, completedAt (ignored: the server sets it), title, description, priority, assignedTo, dueDate, notes} → 200. */
export const action = apiUpdate({ permission: 'work:task', param: 'taskId' }, taskUpdateSchema, updateTask);
