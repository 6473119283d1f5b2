import { reviseAgreement } from '~/agreements/agreements.server.ts';
import { agreementTermsSchema } from '~/agreements/schemas.ts';
import { apiJson, methodNotAllowed, parseJsonBody, requireUuidParam } from '~/utils/api.server.ts';
import { apiAction } from '~/utils/api-route.server.ts';

/**
 * PUT /api/agreements/{id} with every term (manager): the latest version, unsigned, is edited in place (200);
 * signed, the edit is a new version (201). 409 for an older version or an effective day before the latest's.
 */
export const action = apiAction({ method: 'PUT', allow: ['PUT'], permission: 'manage:agreement' }, async ({ actor, request, params, ip }) => {
  const id = requireUuidParam(params.id);
  const input = await parseJsonBody(request, agreementTermsSchema);
  const saved = await reviseAgreement({ actor, id, input, ip });
  return apiJson(saved, { status: saved.id === id ? 200 : 201 });
});

export const loader = () => methodNotAllowed(['PUT']);
