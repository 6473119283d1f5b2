import { createInvoice } from '~/invoices/invoice-create.server.ts';
import { listInvoices } from '~/invoices/invoice-queries.server.ts';
import type { InvoiceCreateInput } from '~/invoices/schemas.ts';
import { apiJson, listParams, readJsonObject } from '~/utils/api.server.ts';
import { apiAction, apiLoader, apiList } from '~/utils/api-route.server.ts';

/** GET /api/invoices: newest first, ?q (number, description), ?status, ?clientId, ?customerId, ?limit, ?offset; X-Total-Count. */
export const loader = apiLoader('read:all', async ({ request }) => {
  const params = new URL(request.url).searchParams;
  const { items, total } = await listInvoices({
    ...listParams(request),
    status: params.get('status'),
    clientId: params.get('clientId'),
    customerId: params.get('customerId'),
  });
  return apiList(items, total);
});

/** POST /api/invoices {clientId, customerId, invoiceNumber, issueDate, dueDate, amount, currency, description, lines?} → 201. */
export const action = apiAction({ method: 'POST', allow: ['GET', 'POST'], permission: 'create:invoice' }, async ({ actor, request, ip }) => {
  // createInvoice validates with invoiceCreateSchema (400 per field): the body goes to it as sent.
  const input = (await readJsonObject(request)) as InvoiceCreateInput;
  const invoice = await createInvoice({ actor, input, ip });
  return apiJson(invoice, { status: 201 });
});
