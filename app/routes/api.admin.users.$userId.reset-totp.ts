import { resetUserTotp } from '~/auth/users.server.ts';
import { apiJson, methodNotAllowed, requireUuidParam } from '~/utils/api.server.ts';
import { apiAction } from '~/utils/api-route.server.ts';

/**
 * POST /api/admin/users/{userId}/reset-totp (no body): the user sets up their
 * authenticator again at the next sign-in and is signed out now. 200 with the
 * user; 403 for one's own account or without the admin role; 404.
 */
export const action = apiAction({ method: 'POST', allow: ['POST'], permission: 'manage:users' }, async ({ actor, params, ip }) => {
  const userId = requireUuidParam(params.userId);
  return apiJson(await resetUserTotp(actor, userId, { ip }));
});

export const loader = () => methodNotAllowed(['POST']);
