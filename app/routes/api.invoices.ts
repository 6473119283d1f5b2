import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { clientIp } from '~/auth/login.server.ts';
import { requirePermission } from '~/auth/permissions.server.ts';
import { createInvoice } from '~/invoices/invoice-create.server.ts';
import { listInvoices } from '~/invoices/invoice-queries.server.ts';
import type { InvoiceCreateInput } from '~/invoices/schemas.ts';
import { apiJson, listParams, methodNotAllowed, readJsonObject } from '~/utils/api.server.ts';

/** GET /api/invoices: newest first, ?q (number, description), ?status, ?clientId, ?customerId, ?limit, ?offset; X-Total-Count. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requirePermission(request, 'read:all', { api: true });
  const params = new URL(request.url).searchParams;
  const { items, total } = await listInvoices({
    ...listParams(request),
    status: params.get('status'),
    clientId: params.get('clientId'),
    customerId: params.get('customerId'),
  });
  return apiJson(items, { headers: { 'X-Total-Count': String(total) } });
}

/** POST /api/invoices {clientId, customerId, invoiceNumber, issueDate, dueDate, amount, currency, description, lines?} → 201. */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['GET', 'POST']);
  const actor = await requirePermission(request, 'create:invoice', { api: true });
  // createInvoice validates with invoiceCreateSchema (400 per field): the body goes to it as sent.
  const input = (await readJsonObject(request)) as InvoiceCreateInput;
  const invoice = await createInvoice({ actor, input, ip: clientIp(context) });
  return apiJson(invoice, { status: 201 });
}
