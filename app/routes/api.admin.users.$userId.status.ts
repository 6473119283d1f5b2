import type { ActionFunctionArgs } from '@remix-run/node';
import { clientIp } from '~/auth/login.server.ts';
import { requirePermission } from '~/auth/permissions.server.ts';
import { setStatusSchema } from '~/auth/schemas.ts';
import { setUserActive } from '~/auth/users.server.ts';
import { apiJson, methodNotAllowed, parseJsonBody, requireUuidParam } from '~/utils/api.server.ts';

/** PUT /api/admin/users/{userId}/status {isActive}; deactivating ends the user's sessions. */
export async function action({ request, params, context }: ActionFunctionArgs) {
  if (request.method !== 'PUT') return methodNotAllowed(['PUT']);
  const actor = await requirePermission(request, 'manage:users', { api: true });
  const userId = requireUuidParam(params.userId);
  const { isActive } = await parseJsonBody(request, setStatusSchema);
  return apiJson(await setUserActive(actor, userId, isActive, { ip: clientIp(context) }));
}

export const loader = () => methodNotAllowed(['PUT']);
