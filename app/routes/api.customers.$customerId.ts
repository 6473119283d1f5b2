import { getCustomer, updateCustomer } from '~/customers/customers.server.ts';
import { customerUpdateSchema } from '~/customers/schemas.ts';
import { apiJson, parseJsonBody, requireUuidParam } from '~/utils/api.server.ts';
import { apiAction, apiLoader } from '~/utils/api-route.server.ts';

/** GET /api/customers/{id}: the customer with its blockage data, invoices as debtor, documents, risk history and activity. */
export const loader = apiLoader('read:all', async ({ params }) => {
  return apiJson(await getCustomer(requireUuidParam(params.customerId)));
});

/** PUT /api/customers/{id}: any of the creation fields; 200 with the stored customer. */
export const action = apiAction({ method: 'PUT', allow: ['GET', 'PUT'], permission: 'update:customer' }, async ({ actor, request, params, ip }) => {
  const id = requireUuidParam(params.customerId);
  const input = await parseJsonBody(request, customerUpdateSchema);
  return apiJson(await updateCustomer({ actor, id, input, ip }));
});
