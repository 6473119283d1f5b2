import { requireIntegrationType, testIntegration } from '~/integrations/integrations.server.ts';
import { apiAction } from '~/utils/api-route.server.ts';
import { apiJson, methodNotAllowed } from '~/utils/api.server.ts';

/** POST /api/integrations/{type}/test (admin, no payload) → {success, message, durationMs}; a failing integration is 200 with success false. */
export const loader = () => methodNotAllowed(['POST']);

export const action = apiAction({ method: 'POST', allow: ['POST'], permission: 'manage:integrations' }, async ({ actor, params, ip }) =>
  apiJson(await testIntegration({ actor, type: requireIntegrationType(params.type), ip })),
);
