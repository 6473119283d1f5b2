import { approveWriteOff } from '~/recourse/write-off.server.ts';
import { apiJson, methodNotAllowed, requireUuidParam } from '~/utils/api.server.ts';
import { apiAction } from '~/utils/api-route.server.ts';

/**
 * PUT /api/write-offs/{id}/approve → 200 with the request; the invoice is written off and the loss booked.
 * Admin, not the requester (403, four eyes); 409 unless pending (docs/lifecycle.md#recourse-and-write-off).
 */
export const action = apiAction({ method: 'PUT', allow: ['PUT'], permission: 'decide:write_off' }, async ({ actor, params, ip }) => {
  const id = requireUuidParam(params.id);
  return apiJson(await approveWriteOff({ actor, id, ip }));
});

export const loader = () => methodNotAllowed(['PUT']);
