import { listDebtorLinks } from '~/debtors/links.server.ts';
import { listParams, methodNotAllowed, requireUuidParam } from '~/utils/api.server.ts';
import { apiList, apiLoader } from '~/utils/api-route.server.ts';

/** GET /api/customers/{id}/debtor-links: the debtor's links, newest first (?limit, ?offset); X-Total-Count. */
export const loader = apiLoader('read:all', async ({ request, params }) => {
  const { limit, offset } = listParams(request);
  const { links, total } = await listDebtorLinks(requireUuidParam(params.customerId), { limit, offset });
  return apiList(links, total);
});

export const action = () => methodNotAllowed(['GET']);
