import { listUnmatchedEntries } from '~/banking/camt053.server.ts';
import { listParams, methodNotAllowed } from '~/utils/api.server.ts';
import { apiLoader, apiList } from '~/utils/api-route.server.ts';

/** GET /api/bank-statements/unmatched: statement entries no invoice matched, newest first; X-Total-Count. */
export const loader = apiLoader('read:all', async ({ request }) => {
  const { limit, offset } = listParams(request);
  const { items, total } = await listUnmatchedEntries({ limit, offset });
  return apiList(items, total);
});

export const action = () => methodNotAllowed(['GET']);
