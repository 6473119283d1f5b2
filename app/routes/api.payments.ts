import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { clientIp } from '~/auth/login.server.ts';
import { requirePermission } from '~/auth/permissions.server.ts';
import { listPayments, paymentJson } from '~/payments/payment-queries.server.ts';
import { recordPayment } from '~/payments/payment-recording.server.ts';
import type { PaymentCreateInput } from '~/payments/schemas.ts';
import { apiJson, listParams, methodNotAllowed, readJsonObject } from '~/utils/api.server.ts';

/** GET /api/payments: newest first, ?q (invoice number, reference, client/customer name), ?status, ?limit, ?offset; X-Total-Count. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requirePermission(request, 'read:all', { api: true });
  const status = new URL(request.url).searchParams.get('status') || null;
  const { items, total } = await listPayments({ ...listParams(request), status });
  return apiJson(items.map(paymentJson), { headers: { 'X-Total-Count': String(total) } });
}

/** POST /api/payments {invoiceId, amount, paymentMethod, reference, notes} → 201 with the pending payment. */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['GET', 'POST']);
  const actor = await requirePermission(request, 'create:payment', { api: true });
  // recordPayment validates with paymentCreateSchema (400 per field): the body goes to it as sent.
  const input = (await readJsonObject(request)) as PaymentCreateInput;
  const payment = await recordPayment({ actor, input, ip: clientIp(context) });
  return apiJson(paymentJson(payment), { status: 201 });
}
