import { apiJson, methodNotAllowed, listParams } from '~/utils/api.server.ts';
import { listInstances } from '~/workflows/instances.server.ts';
import { WORKFLOW_STATUSES } from '~/workflows/schemas.ts';
import { apiLoader, apiList } from '~/utils/api-route.server.ts';

/** GET /api/workflow-instances: newest first with workflow name/type and progress; ?status, ?limit, ?offset; X-Total-Count. */
export const loader = apiLoader('read:all', async ({ request }) => {
  const { limit, offset } = listParams(request);
  const status = new URL(request.url).searchParams.get('status');
  // An unknown status matches nothing rather than being ignored silently.
  if (status && !(WORKFLOW_STATUSES as readonly string[]).includes(status)) return apiJson([], { headers: { 'X-Total-Count': '0' } });
  const { items, total } = await listInstances({ status, limit, offset });
  return apiList(items, total);
});

export const action = () => methodNotAllowed(['GET']);
