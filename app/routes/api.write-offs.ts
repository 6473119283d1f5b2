import { listWriteOffRequests } from '~/recourse/write-off.server.ts';
import { listParams, methodNotAllowed } from '~/utils/api.server.ts';
import { apiLoader, apiList } from '~/utils/api-route.server.ts';

/** GET /api/write-offs: the write-off requests, newest first; ?status (pending|approved|rejected; all by default), ?limit, ?offset; X-Total-Count. */
export const loader = apiLoader('read:all', async ({ request }) => {
  const { items, total } = await listWriteOffRequests({ ...listParams(request), status: new URL(request.url).searchParams.get('status') });
  return apiList(items, total);
});

export const action = () => methodNotAllowed(['GET']);
