import { createClient, listClients } from '~/clients/clients.server.ts';
import { clientCreateSchema } from '~/clients/schemas.ts';
import { listParams } from '~/utils/api.server.ts';
import { apiCreate, apiList, apiLoader } from '~/utils/api-route.server.ts';

/** GET /api/clients: newest first, ?q (name, OIB prefix, email), ?status, ?limit, ?offset; X-Total-Count. */
export const loader = apiLoader('read:all', async ({ request }) => {
  const status = new URL(request.url).searchParams.get('status');
  const { clients, total } = await listClients({ ...listParams(request), status });
  return apiList(clients, total);
});

/** POST /api/clients {companyName, oib, address, city, postalCode, country, contactPerson, email, phone, iban, registrationNumber} → 201. */
export const action = apiCreate('create:client', clientCreateSchema, createClient);
