import { apiJson, methodNotAllowed, requireUuidParam } from '~/utils/api.server.ts';
import { getInstanceDetail } from '~/workflows/instances.server.ts';
import { apiLoader } from '~/utils/api-route.server.ts';

/** GET /api/workflow-instances/{id}: the instance with its step history and tasks. */
export const loader = apiLoader('read:all', async ({ params }) => {
  return apiJson(await getInstanceDetail(requireUuidParam(params.id)));
});

export const action = () => methodNotAllowed(['GET']);
