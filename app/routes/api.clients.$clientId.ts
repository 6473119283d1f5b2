import { getClient, updateClient } from '~/clients/clients.server.ts';
import { clientUpdateSchema } from '~/clients/schemas.ts';
import { apiJson, requireUuidParam } from '~/utils/api.server.ts';
import { apiLoader, apiUpdate } from '~/utils/api-route.server.ts';

/** GET /api/clients/{id}: the client with its agreement, figures, invoices, documents, risk history and activity. */
export const loader = apiLoader('read:all', async ({ params }) => {
  return apiJson(await getClient(requireUuidParam(params.clientId)));
});

/** PUT /api/clients/{id}: any of the creation fields and `status`; 200 with the stored client. */
export const action = apiUpdate({ permission: 'update:client', param: 'clientId' }, clientUpdateSchema, updateClient);
