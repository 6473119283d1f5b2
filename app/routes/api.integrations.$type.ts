import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { clientIp } from '~/auth/login.server.ts';
import { requirePermission } from '~/auth/permissions.server.ts';
import { configureIntegration, getIntegration, requireIntegrationType } from '~/integrations/integrations.server.ts';
import { integrationConfigSchema } from '~/integrations/schemas.ts';
import { apiJson, methodNotAllowed, parseJsonBody } from '~/utils/api.server.ts';

/** GET /api/integrations/{type}: one integration (credentials only as masked hints). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requirePermission(request, 'read:all', { api: true });
  return apiJson(await getIntegration(requireIntegrationType(params.type)));
}

/** PUT /api/integrations/{type} {endpoint?, mode?, isEnabled?, credentials?: {key: value}, clearCredentials?} (admin). */
export async function action({ request, params, context }: ActionFunctionArgs) {
  if (request.method !== 'PUT') return methodNotAllowed(['GET', 'PUT']);
  const actor = await requirePermission(request, 'manage:integrations', { api: true });
  const type = requireIntegrationType(params.type);
  const input = await parseJsonBody(request, integrationConfigSchema);
  return apiJson(await configureIntegration({ actor, type, input, ip: clientIp(context) }));
}
