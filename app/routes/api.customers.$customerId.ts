import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { clientIp } from '~/auth/login.server.ts';
import { requirePermission } from '~/auth/permissions.server.ts';
import { getCustomer, updateCustomer } from '~/customers/customers.server.ts';
import { customerUpdateSchema } from '~/customers/schemas.ts';
import { apiJson, methodNotAllowed, parseJsonBody, requireUuidParam } from '~/utils/api.server.ts';

/** GET /api/customers/{id}: the customer with its blockage data, invoices as debtor, documents, risk history and activity. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requirePermission(request, 'read:all', { api: true });
  return apiJson(await getCustomer(requireUuidParam(params.customerId)));
}

/** PUT /api/customers/{id}: any of the creation fields; 200 with the stored customer. */
export async function action({ request, params, context }: ActionFunctionArgs) {
  if (request.method !== 'PUT') return methodNotAllowed(['GET', 'PUT']);
  const actor = await requirePermission(request, 'update:customer', { api: true });
  const id = requireUuidParam(params.customerId);
  const input = await parseJsonBody(request, customerUpdateSchema);
  return apiJson(await updateCustomer({ actor, id, input, ip: clientIp(context) }));
}
