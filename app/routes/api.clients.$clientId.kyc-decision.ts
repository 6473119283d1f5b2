import { decideKyc } from '~/onboarding/kyc-decision.server.ts';
import { kycDecisionSchema } from '~/onboarding/schemas.ts';
import { apiJson, methodNotAllowed, parseJsonBody, requireUuidParam } from '~/utils/api.server.ts';
import { apiAction } from '~/utils/api-route.server.ts';

/**
 * POST /api/clients/{id}/kyc-decision {decision: 'approve'|'reject'|'request_documents', reason?, message?}
 * (manager): 200 with the client's new state, the workflow's and whether the applicant was emailed.
 */
export const action = apiAction({ method: 'POST', allow: ['POST'], permission: 'decide:kyc' }, async ({ actor, request, params, ip }) => {
  const clientId = requireUuidParam(params.clientId);
  const input = await parseJsonBody(request, kycDecisionSchema);
  return apiJson(await decideKyc({ actor, clientId, input, ip }));
});

export const loader = () => methodNotAllowed(['POST']);
