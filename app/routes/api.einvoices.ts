import { listOutgoingEInvoices } from '~/einvoices/outgoing.server.ts';
import { listParams, methodNotAllowed } from '~/utils/api.server.ts';
import { apiLoader, apiList } from '~/utils/api-route.server.ts';

/** GET /api/einvoices: the factor's fee e-invoices, newest first; ?q (number, client, invoice number), ?status, ?limit, ?offset; X-Total-Count. */
export const loader = apiLoader('read:all', async ({ request }) => {
  const { items, total } = await listOutgoingEInvoices({ ...listParams(request), status: new URL(request.url).searchParams.get('status') });
  return apiList(items, total);
});

export const action = () => methodNotAllowed(['GET']);
