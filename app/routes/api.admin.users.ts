import { createUserSchema } from '~/auth/schemas.ts';
import { createStaffUser, listUsers } from '~/auth/users.server.ts';
import { sendSetPasswordLink } from '~/auth/user-mail.server.ts';
import { apiJson, listParams, parseJsonBody } from '~/utils/api.server.ts';
import { apiAction, apiLoader, apiList } from '~/utils/api-route.server.ts';

/** GET /api/admin/users (admin, super_admin): newest first, ?q, ?limit, ?offset, X-Total-Count. */
export const loader = apiLoader('manage:users', async ({ request }) => {
  const { users, total } = await listUsers(listParams(request));
  return apiList(users, total);
});

/** POST /api/admin/users {email, firstName, lastName, role, password?} → 201 with the user (docs/api.md). */
export const action = apiAction({ method: 'POST', allow: ['GET', 'POST'], permission: 'manage:users' }, async ({ actor, request, ip }) => {
  const input = await parseJsonBody(request, createUserSchema);
  const { user, setPasswordLink } = await createStaffUser(actor, input, { ip });
  if (setPasswordLink) await sendSetPasswordLink(user, setPasswordLink);
  return apiJson(user, { status: 201 });
});
