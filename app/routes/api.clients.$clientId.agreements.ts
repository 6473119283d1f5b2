import { createAgreement, listAgreements } from '~/agreements/agreements.server.ts';
import { agreementTermsSchema } from '~/agreements/schemas.ts';
import { apiJson, parseJsonBody, requireUuidParam } from '~/utils/api.server.ts';
import { apiAction, apiLoader, apiList } from '~/utils/api-route.server.ts';

/** GET /api/clients/{id}/agreements: every version of the client's factoring agreement, newest first; X-Total-Count. */
export const loader = apiLoader('read:all', async ({ params }) => {
  const versions = await listAgreements(requireUuidParam(params.clientId));
  return apiList(versions, versions.length);
});

/** POST /api/clients/{id}/agreements {number, effectiveFrom, advanceRate, feeModel, feeRate, …} (manager) → 201 with version 1, unsigned; 409 when the client has one. */
export const action = apiAction({ method: 'POST', allow: ['GET', 'POST'], permission: 'manage:agreement' }, async ({ actor, request, params, ip }) => {
  const clientId = requireUuidParam(params.clientId);
  const input = await parseJsonBody(request, agreementTermsSchema);
  return apiJson(await createAgreement({ actor, clientId, input, ip }), { status: 201 });
});
