import { rejectAdjustment } from '~/ledger/adjustments.server.ts';
import { adjustmentRejectSchema } from '~/ledger/schemas.ts';
import { apiJson, methodNotAllowed, parseJsonBody, requireUuidParam } from '~/utils/api.server.ts';
import { apiAction } from '~/utils/api-route.server.ts';

/** POST /api/ledger-adjustments/{id}/reject {reason} → 200, nothing posted. Manager; 403 for its requester, 409 unless pending. */
export const action = apiAction({ method: 'POST', allow: ['POST'], permission: 'adjust:ledger' }, async ({ actor, request, params, ip }) => {
  const id = requireUuidParam(params.id);
  const { reason } = await parseJsonBody(request, adjustmentRejectSchema);
  return apiJson(await rejectAdjustment({ actor, id, reason, ip }));
});

export const loader = () => methodNotAllowed(['POST']);
