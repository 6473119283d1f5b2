import { setRoleSchema } from '~/auth/schemas.ts';
import { setUserRole } from '~/auth/users.server.ts';
import { apiJson, methodNotAllowed, parseJsonBody, requireUuidParam } from '~/utils/api.server.ts';
import { apiAction } from '~/utils/api-route.server.ts';

/** PUT /api/admin/users/{userId}/role {role}. */
export const action = apiAction({ method: 'PUT', allow: ['PUT'], permission: 'manage:users' }, async ({ actor, request, params, ip }) => {
  const userId = requireUuidParam(params.userId);
  const { role } = await parseJsonBody(request, setRoleSchema);
  return apiJson(await setUserRole(actor, userId, role, { ip }));
});

export const loader = () => methodNotAllowed(['PUT']);
