import type { ActionFunctionArgs } from '@remix-run/node';
import { clientIp } from '~/auth/login.server.ts';
import { requirePermission } from '~/auth/permissions.server.ts';
import { requireIntegrationType, testIntegration } from '~/integrations/integrations.server.ts';
import { apiJson, methodNotAllowed } from '~/utils/api.server.ts';

/** POST /api/integrations/{type}/test (admin, no payload) → {success, message, durationMs}; a failing integration is 200 with success false. */
export async function loader() {
  return methodNotAllowed(['POST']);
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['POST']);
  const actor = await requirePermission(request, 'manage:integrations', { api: true });
  const type = requireIntegrationType(params.type);
  return apiJson(await testIntegration({ actor, type, ip: clientIp(context) }));
}
