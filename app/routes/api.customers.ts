import { createCustomer, listCustomers } from '~/customers/customers.server.ts';
import { customerCreateSchema } from '~/customers/schemas.ts';
import { listParams } from '~/utils/api.server.ts';
import { apiCreate, apiList, apiLoader } from '~/utils/api-route.server.ts';

/** GET /api/customers: newest first, ?q (name, OIB prefix, email), ?accountBlocked=true|false, ?limit, ?offset; X-Total-Count. */
export const loader = apiLoader('read:all', async ({ request }) => {
  const accountBlocked = new URL(request.url).searchParams.get('accountBlocked');
  const { customers, total } = await listCustomers({ ...listParams(request), accountBlocked });
  return apiList(customers, total);
});

/** POST /api/customers {companyName, oib, address, city, postalCode, country, email, phone, iban, registrationNumber} → 201. */
export const action = apiCreate('create:customer', customerCreateSchema, createCustomer);
