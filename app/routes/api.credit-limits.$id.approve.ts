import { approveCreditLimit } from '~/limits/credit-limits.server.ts';
import { approveCreditLimitSchema } from '~/limits/schemas.ts';
import { apiJson, methodNotAllowed, parseJsonBody, requireUuidParam } from '~/utils/api.server.ts';
import { apiAction } from '~/utils/api-route.server.ts';

/**
 * PUT /api/credit-limits/{id}/approve {approvedLimit?} → 200 with the request.
 * Manager; 403 for the request's own author, 409 unless pending (docs/domain-model.md#roles-and-permissions, docs/lifecycle.md#credit-limits).
 */
export const action = apiAction({ method: 'PUT', allow: ['PUT'], permission: 'decide:credit_limit' }, async ({ actor, request, params, ip }) => {
  const id = requireUuidParam(params.id);
  const { approvedLimit } = await parseJsonBody(request, approveCreditLimitSchema);
  return apiJson(await approveCreditLimit({ actor, id, approvedLimit, ip }));
});

export const loader = () => methodNotAllowed(['PUT']);
