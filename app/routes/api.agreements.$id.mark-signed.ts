import { markAgreementSigned } from '~/agreements/agreements.server.ts';
import { markSignedSchema } from '~/agreements/schemas.ts';
import { apiJson, methodNotAllowed, parseJsonBody, requireUuidParam } from '~/utils/api.server.ts';
import { apiAction } from '~/utils/api-route.server.ts';

/** POST /api/agreements/{id}/mark-signed {signedOn: 'YYYY-MM-DD'} (manager): the paper signature; 400 for a future day, 409 when already signed. */
export const action = apiAction({ method: 'POST', allow: ['POST'], permission: 'manage:agreement' }, async ({ actor, request, params, ip }) => {
  const id = requireUuidParam(params.id);
  const { signedOn } = await parseJsonBody(request, markSignedSchema);
  return apiJson(await markAgreementSigned({ actor, id, signedOn, ip }));
});

export const loader = () => methodNotAllowed(['POST']);
