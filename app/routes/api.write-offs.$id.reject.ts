import { rejectWriteOff } from '~/recourse/write-off.server.ts';
import { recourseReasonSchema } from '~/recourse/schemas.ts';
import { apiJson, methodNotAllowed, parseJsonBody, requireUuidParam } from '~/utils/api.server.ts';
import { apiAction } from '~/utils/api-route.server.ts';

/** PUT /api/write-offs/{id}/reject {reason} → 200 with the request; the invoice stays financed. Admin, not the requester (403); 409 unless pending. */
export const action = apiAction({ method: 'PUT', allow: ['PUT'], permission: 'decide:write_off' }, async ({ actor, request, params, ip }) => {
  const id = requireUuidParam(params.id);
  const input = await parseJsonBody(request, recourseReasonSchema);
  return apiJson(await rejectWriteOff({ actor, id, input, ip }));
});

export const loader = () => methodNotAllowed(['PUT']);
