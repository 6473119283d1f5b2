import { getCustomer, updateCustomer } from '~/customers/customers.server.ts';
import { customerUpdateSchema } from '~/customers/schemas.ts';
import { apiJson, requireUuidParam } from '~/utils/api.server.ts';
import { apiLoader, apiUpdate } from '~/utils/api-route.server.ts';

/** GET /api/customers/{id}: the customer with its blockage data, invoices as debtor, documents, risk history and activity. */
export const loader = apiLoader('read:all', async ({ params }) => {
  return apiJson(await getCustomer(requireUuidParam(params.customerId)));
});

/** PUT /api/customers/{id}: any of the creation fields; 200 with the stored customer. */
export const action = apiUpdate({ permission: 'update:customer', param: 'customerId' }, customerUpdateSchema, updateCustomer);
