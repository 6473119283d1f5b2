import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { clientIp } from '~/auth/login.server.ts';
import { requirePermission } from '~/auth/permissions.server.ts';
import { createCustomer, listCustomers } from '~/customers/customers.server.ts';
import { customerCreateSchema } from '~/customers/schemas.ts';
import { apiJson, listParams, methodNotAllowed, parseJsonBody } from '~/utils/api.server.ts';

/** GET /api/customers: newest first, ?q (name, OIB prefix, email), ?accountBlocked=true|false, ?limit, ?offset; X-Total-Count. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requirePermission(request, 'read:all', { api: true });
  const accountBlocked = new URL(request.url).searchParams.get('accountBlocked');
  const { customers, total } = await listCustomers({ ...listParams(request), accountBlocked });
  return apiJson(customers, { headers: { 'X-Total-Count': String(total) } });
}

/** POST /api/customers {companyName, oib, address, city, postalCode, country, email, phone, iban, registrationNumber} → 201. */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['GET', 'POST']);
  const actor = await requirePermission(request, 'create:customer', { api: true });
  const input = await parseJsonBody(request, customerCreateSchema);
  const customer = await createCustomer({ actor, input, ip: clientIp(context) });
  return apiJson(customer, { status: 201 });
}
