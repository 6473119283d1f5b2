import type { ActionFunctionArgs } from '@remix-run/node';
import { ageingInvoices } from '~/analytics/ageing.server.ts';
import { listParams, methodNotAllowed } from '~/utils/api.server.ts';
import { apiList, apiLoader } from '~/utils/api-route.server.ts';

/**
 * GET /api/analytics/ageing/invoices?asOf=&by=client|customer&partyId=&bucket=&limit=&offset=:
 * the invoices behind one row of the ageing report and one bucket (none: all
 * of the row's), most days past due first; X-Total-Count. 400 for a bad day,
 * `by`, bucket or party id, 404 for a party that is no client or customer.
 */
export const loader = apiLoader('read:all', async ({ request }) => {
  const params = new URL(request.url).searchParams;
  const { limit, offset } = listParams(request);
  const { items, total } = await ageingInvoices({
    asOf: params.get('asOf'),
    by: params.get('by'),
    partyId: params.get('partyId'),
    bucket: params.get('bucket'),
    limit,
    offset,
  });
  return apiList(items, total);
});

export function action(_args: ActionFunctionArgs) {
  return methodNotAllowed(['GET']);
}
