import { getInvoiceDetail } from '~/invoices/invoice-queries.server.ts';
import { apiJson, methodNotAllowed, requireUuidParam } from '~/utils/api.server.ts';
import { apiLoader } from '~/utils/api-route.server.ts';

/** GET /api/invoices/{id}: the invoice with lines, client, customer, documents, payments, payouts and its history. */
export const loader = apiLoader('read:all', async ({ params }) => {
  return apiJson(await getInvoiceDetail(requireUuidParam(params.invoiceId)));
});

export const action = () => methodNotAllowed(['GET']);
