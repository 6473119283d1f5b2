import type { ActionFunctionArgs } from '@remix-run/node';
import { clientIp, logout } from '~/auth/login.server.ts';
import { apiJson, methodNotAllowed } from '~/utils/api.server.ts';

/** POST /api/auth/logout: ends the session on the server; 200 even without one (docs/api.md). */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['POST']);
  const { data, headers } = await logout(request, { ip: clientIp(context) });
  return apiJson(data, { headers });
}

export const loader = () => methodNotAllowed(['POST']);
