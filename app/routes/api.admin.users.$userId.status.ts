import { setStatusSchema } from '~/auth/schemas.ts';
import { setUserActive } from '~/auth/users.server.ts';
import { apiJson, methodNotAllowed, parseJsonBody, requireUuidParam } from '~/utils/api.server.ts';
import { apiAction } from '~/utils/api-route.server.ts';

/** PUT /api/admin/users/{userId}/status {isActive}; deactivating ends the user's sessions. */
export const action = apiAction({ method: 'PUT', allow: ['PUT'], permission: 'manage:users' }, async ({ actor, request, params, ip }) => {
  const userId = requireUuidParam(params.userId);
  const { isActive } = await parseJsonBody(request, setStatusSchema);
  return apiJson(await setUserActive(actor, userId, isActive, { ip }));
});

export const loader = () => methodNotAllowed(['PUT']);
