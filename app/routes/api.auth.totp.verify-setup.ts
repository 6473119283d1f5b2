import type { ActionFunctionArgs } from '@remix-run/node';
import { clientIp, verifyTotpSetup } from '~/auth/login.server.ts';
import { apiJson, methodNotAllowed, readJsonObject } from '~/utils/api.server.ts';

/** POST /api/auth/totp/verify-setup {totpCode}: confirms the authenticator and completes sign-in. */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['POST']);
  const { data, headers } = await verifyTotpSetup(request, await readJsonObject(request), { ip: clientIp(context) });
  return apiJson(data, { headers });
}

export const loader = () => methodNotAllowed(['POST']);
