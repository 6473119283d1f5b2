import type { ActionFunctionArgs } from '@remix-run/node';
import { clientIp, verifyOtp } from '~/auth/login.server.ts';
import { apiJson, methodNotAllowed, readJsonObject } from '~/utils/api.server.ts';

/** POST /api/auth/verify-otp {otpCode}: the second factor at sign-in; a code works once. */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['POST']);
  const { data, headers } = await verifyOtp(request, await readJsonObject(request), { ip: clientIp(context) });
  return apiJson(data, { headers });
}

export const loader = () => methodNotAllowed(['POST']);
