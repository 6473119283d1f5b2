import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { requirePermission } from '~/auth/permissions.server.ts';
import { listIntegrations } from '~/integrations/integrations.server.ts';
import { apiJson, methodNotAllowed } from '~/utils/api.server.ts';

/** GET /api/integrations (docs/api.md): every integration with status, lastCheck, lastSync, errorCount, lastError; X-Total-Count. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requirePermission(request, 'read:all', { api: true });
  const integrations = await listIntegrations();
  return apiJson(integrations, { headers: { 'X-Total-Count': String(integrations.length) } });
}

export async function action(_args: ActionFunctionArgs) {
  return methodNotAllowed(['GET']);
}
