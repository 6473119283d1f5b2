import type { LoaderFunctionArgs } from '@remix-run/node';
import { requirePermission } from '~/auth/permissions.server.ts';
import { listOutgoingEInvoices } from '~/einvoices/outgoing.server.ts';
import { apiJson, listParams, methodNotAllowed } from '~/utils/api.server.ts';

/** GET /api/einvoices: the factor's fee e-invoices, newest first; ?q (number, client, invoice number), ?status, ?limit, ?offset; X-Total-Count. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requirePermission(request, 'read:all', { api: true });
  const { items, total } = await listOutgoingEInvoices({ ...listParams(request), status: new URL(request.url).searchParams.get('status') });
  return apiJson(items, { headers: { 'X-Total-Count': String(total) } });
}

export const action = () => methodNotAllowed(['GET']);
