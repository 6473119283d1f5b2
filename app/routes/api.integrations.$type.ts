import { configureIntegration, getIntegration, requireIntegrationType } from '~/integrations/integrations.server.ts';
import { integrationConfigSchema } from '~/integrations/schemas.ts';
import { apiJson, parseJsonBody } from '~/utils/api.server.ts';
import { apiAction, apiLoader } from '~/utils/api-route.server.ts';

/** GET /api/integrations/{type}: one integration (credentials only as masked hints). */
export const loader = apiLoader('read:all', async ({ params }) => {
  return apiJson(await getIntegration(requireIntegrationType(params.type)));
});

/** PUT /api/integrations/{type} {endpoint?, mode?, isEnabled?, credentials?: {key: value}, clearCredentials?} (admin). */
export const action = apiAction({ method: 'PUT', allow: ['GET', 'PUT'], permission: 'manage:integrations' }, async ({ actor, request, params, ip }) => {
  const type = requireIntegrationType(params.type);
  const input = await parseJsonBody(request, integrationConfigSchema);
  return apiJson(await configureIntegration({ actor, type, input, ip }));
});
