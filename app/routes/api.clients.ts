import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { clientIp } from '~/auth/login.server.ts';
import { requirePermission } from '~/auth/permissions.server.ts';
import { createClient, listClients } from '~/clients/clients.server.ts';
import { clientCreateSchema } from '~/clients/schemas.ts';
import { apiJson, listParams, methodNotAllowed, parseJsonBody } from '~/utils/api.server.ts';

/** GET /api/clients: newest first, ?q (name, OIB prefix, email), ?status, ?limit, ?offset; X-Total-Count. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requirePermission(request, 'read:all', { api: true });
  const status = new URL(request.url).searchParams.get('status');
  const { clients, total } = await listClients({ ...listParams(request), status });
  return apiJson(clients, { headers: { 'X-Total-Count': String(total) } });
}

/** POST /api/clients {companyName, oib, address, city, postalCode, country, contactPerson, email, phone, iban, registrationNumber} → 201. */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['GET', 'POST']);
  const actor = await requirePermission(request, 'create:client', { api: true });
  const input = await parseJsonBody(request, clientCreateSchema);
  const client = await createClient({ actor, input, ip: clientIp(context) });
  return apiJson(client, { status: 201 });
}
