import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { clientIp } from '~/auth/login.server.ts';
import { requirePermission } from '~/auth/permissions.server.ts';
import { getClient, updateClient } from '~/clients/clients.server.ts';
import { clientUpdateSchema } from '~/clients/schemas.ts';
import { apiJson, methodNotAllowed, parseJsonBody, requireUuidParam } from '~/utils/api.server.ts';

/** GET /api/clients/{id}: the client with its agreement, figures, invoices, documents, risk history and activity. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requirePermission(request, 'read:all', { api: true });
  return apiJson(await getClient(requireUuidParam(params.clientId)));
}

/** PUT /api/clients/{id}: any of the creation fields and `status`; 200 with the stored client. */
export async function action({ request, params, context }: ActionFunctionArgs) {
  if (request.method !== 'PUT') return methodNotAllowed(['GET', 'PUT']);
  const actor = await requirePermission(request, 'update:client', { api: true });
  const id = requireUuidParam(params.clientId);
  const input = await parseJsonBody(request, clientUpdateSchema);
  return apiJson(await updateClient({ actor, id, input, ip: clientIp(context) }));
}
