import { signDocument } from '~/documents/documents.server.ts';
import { apiJson, methodNotAllowed, requireUuidParam } from '~/utils/api.server.ts';
import { apiAction } from '~/utils/api-route.server.ts';

/** PUT /api/documents/{id}/sign (manager and above): pending → signed through the e-signature adapter; 409 otherwise. */
export const action = apiAction({ method: 'PUT', allow: ['PUT'], permission: 'sign:document' }, async ({ actor, params, ip }) => {
  return apiJson(await signDocument({ actor, id: requireUuidParam(params.id), ip }));
});

export const loader = () => methodNotAllowed(['PUT']);
