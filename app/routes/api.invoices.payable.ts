import { listPayableInvoices } from '~/invoices/invoice-queries.server.ts';
import { listParams, methodNotAllowed } from '~/utils/api.server.ts';
import { apiLoader, apiList } from '~/utils/api-route.server.ts';

/** GET /api/invoices/payable: financed invoices not yet fully paid (docs/domain-model.md Payable invoice), newest first; X-Total-Count. */
export const loader = apiLoader('read:all', async ({ request }) => {
  const { items, total } = await listPayableInvoices(listParams(request));
  return apiList(items, total);
});

export const action = () => methodNotAllowed(['GET']);
