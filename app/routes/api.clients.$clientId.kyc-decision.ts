import type { ActionFunctionArgs } from '@remix-run/node';
import { clientIp } from '~/auth/login.server.ts';
import { requirePermission } from '~/auth/permissions.server.ts';
import { decideKyc } from '~/onboarding/kyc-decision.server.ts';
import { kycDecisionSchema } from '~/onboarding/schemas.ts';
import { apiJson, methodNotAllowed, parseJsonBody, requireUuidParam } from '~/utils/api.server.ts';

/**
 * POST /api/clients/{id}/kyc-decision {decision: 'approve'|'reject'|'request_documents', reason?, message?}
 * (manager): 200 with the client's new state, the workflow's and whether the applicant was emailed.
 */
export async function action({ request, params, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['POST']);
  const actor = await requirePermission(request, 'decide:kyc', { api: true });
  const clientId = requireUuidParam(params.clientId);
  const input = await parseJsonBody(request, kycDecisionSchema);
  return apiJson(await decideKyc({ actor, clientId, input, ip: clientIp(context) }));
}

export const loader = () => methodNotAllowed(['POST']);
