import { apiJson, readJsonObject, requireUuidParam } from '~/utils/api.server.ts';
import { getDefinition, updateDefinition } from '~/workflows/definitions.server.ts';
import { apiAction, apiLoader } from '~/utils/api-route.server.ts';

/** GET /api/workflows/{id}: one definition. */
export const loader = apiLoader('read:all', async ({ params }) => {
  return apiJson(await getDefinition(requireUuidParam(params.id)));
});

/** PUT /api/workflows/{id} {name?, type?, description?, steps?, isActive?} ('edit:workflow'). */
export const action = apiAction({ method: 'PUT', allow: ['GET', 'PUT'], permission: 'edit:workflow' }, async ({ actor, request, params, ip }) => {
  const id = requireUuidParam(params.id);
  const input = await readJsonObject(request);
  return apiJson(await updateDefinition({ actor, id, input, ip }));
});
