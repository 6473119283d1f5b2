import { getClient, updateClient } from '~/clients/clients.server.ts';
import { clientUpdateSchema } from '~/clients/schemas.ts';
import { apiJson, parseJsonBody, requireUuidParam } from '~/utils/api.server.ts';
import { apiAction, apiLoader } from '~/utils/api-route.server.ts';

/** GET /api/clients/{id}: the client with its agreement, figures, invoices, documents, risk history and activity. */
export const loader = apiLoader('read:all', async ({ params }) => {
  return apiJson(await getClient(requireUuidParam(params.clientId)));
});

/** PUT /api/clients/{id}: any of the creation fields and `status`; 200 with the stored client. */
export const action = apiAction({ method: 'PUT', allow: ['GET', 'PUT'], permission: 'update:client' }, async ({ actor, request, params, ip }) => {
  const id = requireUuidParam(params.clientId);
  const input = await parseJsonBody(request, clientUpdateSchema);
  return apiJson(await updateClient({ actor, id, input, ip }));
});
