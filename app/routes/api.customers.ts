import { createCustomer, listCustomers } from '~/customers/customers.server.ts';
import { customerCreateSchema } from '~/customers/schemas.ts';
import { apiJson, listParams, parseJsonBody } from '~/utils/api.server.ts';
import { apiAction, apiLoader, apiList } from '~/utils/api-route.server.ts';

/** GET /api/customers: newest first, ?q (name, OIB prefix, email), ?accountBlocked=true|false, ?limit, ?offset; X-Total-Count. */
export const loader = apiLoader('read:all', async ({ request }) => {
  const accountBlocked = new URL(request.url).searchParams.get('accountBlocked');
  const { customers, total } = await listCustomers({ ...listParams(request), accountBlocked });
  return apiList(customers, total);
});

/** POST /api/customers {companyName, oib, address, city, postalCode, country, email, phone, iban, registrationNumber} → 201. */
export const action = apiAction({ method: 'POST', allow: ['GET', 'POST'], permission: 'create:customer' }, async ({ actor, request, ip }) => {
  const input = await parseJsonBody(request, customerCreateSchema);
  const customer = await createCustomer({ actor, input, ip });
  return apiJson(customer, { status: 201 });
});
