import { listPayments, paymentJson } from '~/payments/payment-queries.server.ts';
import { recordPayment } from '~/payments/payment-recording.server.ts';
import type { PaymentCreateInput } from '~/payments/schemas.ts';
import { apiJson, listParams, readJsonObject } from '~/utils/api.server.ts';
import { apiAction, apiLoader, apiList } from '~/utils/api-route.server.ts';

/** GET /api/payments: newest first, ?q (invoice number, reference, client/customer name), ?status, ?limit, ?offset; X-Total-Count. */
export const loader = apiLoader('read:all', async ({ request }) => {
  const status = new URL(request.url).searchParams.get('status') || null;
  const { items, total } = await listPayments({ ...listParams(request), status });
  return apiList(items.map(paymentJson), total);
});

/** POST /api/payments {invoiceId, amount, paymentMethod, reference, notes} → 201 with the pending payment. */
export const action = apiAction({ method: 'POST', allow: ['GET', 'POST'], permission: 'create:payment' }, async ({ actor, request, ip }) => {
  // recordPayment validates with paymentCreateSchema (400 per field): the body goes to it as sent.
  const input = (await readJsonObject(request)) as PaymentCreateInput;
  const payment = await recordPayment({ actor, input, ip });
  return apiJson(paymentJson(payment), { status: 201 });
});
