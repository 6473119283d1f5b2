import type { ActionFunctionArgs } from '@remix-run/node';
import { clientIp } from '~/auth/login.server.ts';
import { requestPasswordReset } from '~/auth/password-reset.server.ts';
import { forgotPasswordSchema } from '~/auth/schemas.ts';
import { apiJson, methodNotAllowed, parseJsonBody } from '~/utils/api.server.ts';

/**
 * POST /api/auth/forgot-password {email} (public): 202 with the same body
 * whether or not the address has an account; 400 for an invalid email, 429
 * past the per-address or per-client limit.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['POST']);
  const input = await parseJsonBody(request, forgotPasswordSchema, { maxBytes: 4096 });
  return apiJson(await requestPasswordReset(input, { ip: clientIp(context) }), { status: 202 });
}

export const loader = () => methodNotAllowed(['POST']);
