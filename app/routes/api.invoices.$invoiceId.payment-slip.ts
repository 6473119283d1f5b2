import type { ActionFunctionArgs } from '@remix-run/node';
import { currentPaymentSlip } from '~/dunning/dunning.server.ts';
import { methodNotAllowed, requireUuidParam } from '~/utils/api.server.ts';
import { apiLoader } from '~/utils/api-route.server.ts';

/**
 * GET /api/invoices/{id}/payment-slip: the invoice's payment slip ('Uplatnica', HUB-3A with the HUB3 barcode;
 * docs/collections.md#the-payment-slip) for today's open amount, as a PDF download. 404 unknown invoice, 409 an
 * invoice without a payment reference (never financed). A resource route, so a plain link downloads it.
 */
export const loader = apiLoader('read:all', async ({ params }) => {
  const { fileName, bytes } = await currentPaymentSlip(requireUuidParam(params.invoiceId));
  return new Response(new Uint8Array(bytes), {
    headers: { 'Content-Type': 'application/pdf', 'Content-Disposition': `attachment; filename="${fileName}"`, 'Cache-Control': 'no-store' },
  });
});

export function action(_args: ActionFunctionArgs) {
  return methodNotAllowed(['GET']);
}
