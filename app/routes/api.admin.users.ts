import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { clientIp } from '~/auth/login.server.ts';
import { requirePermission } from '~/auth/permissions.server.ts';
import { createUserSchema } from '~/auth/schemas.ts';
import { createStaffUser, listUsers } from '~/auth/users.server.ts';
import { sendSetPasswordLink } from '~/auth/user-mail.server.ts';
import { apiJson, listParams, methodNotAllowed, parseJsonBody } from '~/utils/api.server.ts';

/** GET /api/admin/users (admin, super_admin): newest first, ?q, ?limit, ?offset, X-Total-Count. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requirePermission(request, 'manage:users', { api: true });
  const { users, total } = await listUsers(listParams(request));
  return apiJson(users, { headers: { 'X-Total-Count': String(total) } });
}

/** POST /api/admin/users {email, firstName, lastName, role, password?} → 201 with the user (docs/api.md). */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['GET', 'POST']);
  const actor = await requirePermission(request, 'manage:users', { api: true });
  const input = await parseJsonBody(request, createUserSchema);
  const { user, setPasswordLink } = await createStaffUser(actor, input, { ip: clientIp(context) });
  if (setPasswordLink) await sendSetPasswordLink(user, setPasswordLink);
  return apiJson(user, { status: 201 });
}
