import { approveAdjustment } from '~/ledger/adjustments.server.ts';
import { apiJson, methodNotAllowed, requireUuidParam } from '~/utils/api.server.ts';
import { apiAction } from '~/utils/api-route.server.ts';

/** POST /api/ledger-adjustments/{id}/approve → 200, the adjustment posted. Manager; 403 for its requester, 409 unless pending. */
export const action = apiAction({ method: 'POST', allow: ['POST'], permission: 'adjust:ledger' }, async ({ actor, params, ip }) => {
  return apiJson(await approveAdjustment({ actor, id: requireUuidParam(params.id), ip }));
});

export const loader = () => methodNotAllowed(['POST']);
