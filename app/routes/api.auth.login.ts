import type { ActionFunctionArgs } from '@remix-run/node';
import { clientIp, startLogin } from '~/auth/login.server.ts';
import { apiJson, methodNotAllowed, readJsonObject } from '~/utils/api.server.ts';

/** POST /api/auth/login {email, password} → {requiresTotp, needsTotpSetup}. */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['POST']);
  const { data, headers } = await startLogin(request, await readJsonObject(request), { ip: clientIp(context) });
  return apiJson(data, { headers });
}

export const loader = () => methodNotAllowed(['POST']);
