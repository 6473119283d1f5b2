import type { ActionFunctionArgs } from '@remix-run/node';
import { listIntegrations } from '~/integrations/integrations.server.ts';
import { methodNotAllowed } from '~/utils/api.server.ts';
import { apiLoader, apiList } from '~/utils/api-route.server.ts';

/** GET /api/integrations (docs/api.md): every integration with status, lastCheck, lastSync, errorCount, lastError; X-Total-Count. */
export const loader = apiLoader('read:all', async () => {
  const integrations = await listIntegrations();
  return apiList(integrations, integrations.length);
});

export async function action(_args: ActionFunctionArgs) {
  return methodNotAllowed(['GET']);
}
