import { taskCreateSchema } from '~/tasks/schemas.ts';
import { createTask, listTasks } from '~/tasks/tasks.server.ts';
import { listParams } from '~/utils/api.server.ts';
import { apiCreate, apiList, apiLoader } from '~/utils/api-route.server.ts';

/** GET /api/tasks: newest first; ?q (title, description), ?status, ?priority, ?assignee (all|me|unassigned|user id), ?limit, ?offset; X-Total-Count. */
export const loader = apiLoader('read:all', async ({ actor: user, request }) => {
  const params = new URL(request.url).searchParams;
  const { tasks, total } = await listTasks({
    ...listParams(request),
    status: params.get('status'),
    priority: params.get('priority'),
    assignee: params.get('assignee'),
    actorId: user.id,
  });
  return apiList(tasks, total);
});

/** POST /api/tasks {title, description, type, priority, assignedTo, dueDate, entityType, entityId, notes} → 201 (docs/api.md). */
export const action = apiCreate('create:task', taskCreateSchema, createTask);
