import type { ActionFunctionArgs } from '@remix-run/node';
import { setupTotp } from '~/auth/login.server.ts';
import { apiJson, methodNotAllowed } from '~/utils/api.server.ts';

/** POST /api/auth/totp/setup → {qrCode, manualKey} for the pending sign-in. */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['POST']);
  const { data, headers } = await setupTotp(request);
  return apiJson(data, { headers });
}

export const loader = () => methodNotAllowed(['POST']);
