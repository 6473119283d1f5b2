import type { LoaderFunctionArgs } from '@remix-run/node';
import { requirePermission } from '~/auth/permissions.server.ts';
import { listPayableInvoices } from '~/invoices/invoice-queries.server.ts';
import { apiJson, listParams, methodNotAllowed } from '~/utils/api.server.ts';

/** GET /api/invoices/payable: financed invoices not yet fully paid (docs/domain-model.md Payable invoice), newest first; X-Total-Count. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requirePermission(request, 'read:all', { api: true });
  const { items, total } = await listPayableInvoices(listParams(request));
  return apiJson(items, { headers: { 'X-Total-Count': String(total) } });
}

export const action = () => methodNotAllowed(['GET']);
