import { rejectCreditLimit } from '~/limits/credit-limits.server.ts';
import { rejectCreditLimitSchema } from '~/limits/schemas.ts';
import { apiJson, methodNotAllowed, parseJsonBody, requireUuidParam } from '~/utils/api.server.ts';
import { apiAction } from '~/utils/api-route.server.ts';

/**
 * PUT /api/credit-limits/{id}/reject {reason} → 200 with the request.
 * Manager; 403 for the request's own author, 409 unless pending (docs/domain-model.md#roles-and-permissions, docs/lifecycle.md#credit-limits).
 */
export const action = apiAction({ method: 'PUT', allow: ['PUT'], permission: 'decide:credit_limit' }, async ({ actor, request, params, ip }) => {
  const id = requireUuidParam(params.id);
  const { reason } = await parseJsonBody(request, rejectCreditLimitSchema);
  return apiJson(await rejectCreditLimit({ actor, id, reason, ip }));
});

export const loader = () => methodNotAllowed(['PUT']);
