import type { ActionFunctionArgs } from '@remix-run/node';
import { clientIp } from '~/auth/login.server.ts';
import { resetPasswordWithToken } from '~/auth/password-reset.server.ts';
import { resetPasswordSchema } from '~/auth/schemas.ts';
import { apiJson, methodNotAllowed, parseJsonBody } from '~/utils/api.server.ts';

/**
 * POST /api/auth/reset-password {token, password} (public): sets the new
 * password with an emailed link and signs the user out everywhere; 400 for
 * the password rules or a link that is unknown, used or expired (on `token`),
 * 429 past the per-client limit of failed links.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['POST']);
  const input = await parseJsonBody(request, resetPasswordSchema, { maxBytes: 8192 });
  return apiJson(await resetPasswordWithToken(input, { ip: clientIp(context) }));
}

export const loader = () => methodNotAllowed(['POST']);
