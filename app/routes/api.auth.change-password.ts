import type { ActionFunctionArgs } from '@remix-run/node';
import { clientIp } from '~/auth/login.server.ts';
import { requireUser } from '~/auth/permissions.server.ts';
import { changePasswordSchema } from '~/auth/schemas.ts';
import { getSession } from '~/auth/session.server.ts';
import { changePassword } from '~/auth/users.server.ts';
import { apiJson, methodNotAllowed, parseJsonBody } from '~/utils/api.server.ts';

/** PUT /api/auth/change-password {currentPassword, newPassword, confirmPassword}. */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== 'PUT') return methodNotAllowed(['PUT']);
  const user = await requireUser(request, { api: true });
  const input = await parseJsonBody(request, changePasswordSchema);
  // The session making the change stays signed in; every other one of this user ends.
  const session = await getSession(request);
  await changePassword(user, input, { ip: clientIp(context), exceptSessionId: session.id });
  return apiJson({ success: true });
}

export const loader = () => methodNotAllowed(['PUT']);
