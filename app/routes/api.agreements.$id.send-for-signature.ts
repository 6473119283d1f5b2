import { sendAgreementForSignature } from '~/agreements/agreements.server.ts';
import { apiJson, methodNotAllowed, requireUuidParam } from '~/utils/api.server.ts';
import { apiAction } from '~/utils/api-route.server.ts';

/** POST /api/agreements/{id}/send-for-signature (manager): the version's PDF to the client's signer through the e-signature adapter; 409 when signed. */
export const action = apiAction({ method: 'POST', allow: ['POST'], permission: 'manage:agreement' }, async ({ actor, params, ip }) => {
  return apiJson(await sendAgreementForSignature({ actor, id: requireUuidParam(params.id), ip }));
});

export const loader = () => methodNotAllowed(['POST']);
