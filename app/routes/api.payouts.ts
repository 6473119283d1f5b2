import { listPayouts } from '~/payouts/payouts.server.ts';
import { listParams, methodNotAllowed } from '~/utils/api.server.ts';
import { apiLoader, apiList } from '~/utils/api-route.server.ts';

/** GET /api/payouts: advances and reserve releases, newest first, ?status, ?limit, ?offset; X-Total-Count. */
export const loader = apiLoader('read:all', async ({ request }) => {
  const { limit, offset } = listParams(request);
  const status = new URL(request.url).searchParams.get('status') || null;
  const { items, total } = await listPayouts({ status, limit, offset });
  return apiList(items, total);
});

export const action = () => methodNotAllowed(['GET']);
