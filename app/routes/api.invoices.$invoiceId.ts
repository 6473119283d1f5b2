import type { LoaderFunctionArgs } from '@remix-run/node';
import { requirePermission } from '~/auth/permissions.server.ts';
import { getInvoiceDetail } from '~/invoices/invoice-queries.server.ts';
import { apiJson, methodNotAllowed, requireUuidParam } from '~/utils/api.server.ts';

/** GET /api/invoices/{id}: the invoice with lines, client, customer, documents, payments, payouts and its history. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requirePermission(request, 'read:all', { api: true });
  return apiJson(await getInvoiceDetail(requireUuidParam(params.invoiceId)));
}

export const action = () => methodNotAllowed(['GET']);
