import type { ActionFunctionArgs } from '@remix-run/node';
import { clientIp } from '~/auth/login.server.ts';
import { requireUser } from '~/auth/permissions.server.ts';
import { profileSchema } from '~/auth/schemas.ts';
import { updateProfile } from '~/auth/users.server.ts';
import { apiJson, methodNotAllowed, parseJsonBody } from '~/utils/api.server.ts';

/** PUT /api/auth/profile {firstName, lastName, email} → the updated user. */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== 'PUT') return methodNotAllowed(['PUT']);
  const user = await requireUser(request, { api: true });
  const input = await parseJsonBody(request, profileSchema);
  return apiJson(await updateProfile(user, input, { ip: clientIp(context) }));
}

export const loader = () => methodNotAllowed(['PUT']);
