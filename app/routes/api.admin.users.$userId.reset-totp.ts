import type { ActionFunctionArgs } from '@remix-run/node';
import { clientIp } from '~/auth/login.server.ts';
import { requirePermission } from '~/auth/permissions.server.ts';
import { resetUserTotp } from '~/auth/users.server.ts';
import { apiJson, methodNotAllowed, requireUuidParam } from '~/utils/api.server.ts';

/**
 * POST /api/admin/users/{userId}/reset-totp (no body): the user sets up their
 * authenticator again at the next sign-in and is signed out now. 200 with the
 * user; 403 for one's own account or without the admin role; 404.
 */
export async function action({ request, params, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['POST']);
  const actor = await requirePermission(request, 'manage:users', { api: true });
  const userId = requireUuidParam(params.userId);
  return apiJson(await resetUserTotp(actor, userId, { ip: clientIp(context) }));
}

export const loader = () => methodNotAllowed(['POST']);
