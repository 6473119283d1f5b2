import type { ActionFunctionArgs } from '@remix-run/node';
import { clientIp } from '~/auth/login.server.ts';
import { requirePermission } from '~/auth/permissions.server.ts';
import { setRoleSchema } from '~/auth/schemas.ts';
import { setUserRole } from '~/auth/users.server.ts';
import { apiJson, methodNotAllowed, parseJsonBody, requireUuidParam } from '~/utils/api.server.ts';

/** PUT /api/admin/users/{userId}/role {role}. */
export async function action({ request, params, context }: ActionFunctionArgs) {
  if (request.method !== 'PUT') return methodNotAllowed(['PUT']);
  const actor = await requirePermission(request, 'manage:users', { api: true });
  const userId = requireUuidParam(params.userId);
  const { role } = await parseJsonBody(request, setRoleSchema);
  return apiJson(await setUserRole(actor, userId, role, { ip: clientIp(context) }));
}

export const loader = () => methodNotAllowed(['PUT']);
