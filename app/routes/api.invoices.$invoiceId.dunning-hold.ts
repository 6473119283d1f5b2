import { setDunningHold } from '~/dunning/dunning.server.ts';
import { dunningHoldSchema } from '~/dunning/schemas.ts';
import { apiJson, methodNotAllowed, parseJsonBody, requireUuidParam } from '~/utils/api.server.ts';
import { apiAction } from '~/utils/api-route.server.ts';

/**
 * PUT /api/invoices/{id}/dunning-hold {hold, reason} → 200 with the invoice's dunning (hold and reminders;
 * docs/collections.md#dunning). Manager. 400 without a reason for a hold, 404 unknown invoice, 409 already on hold,
 * not on hold, or an invoice that is paid or rejected.
 */
export const action = apiAction({ method: 'PUT', allow: ['PUT'], permission: 'hold:dunning' }, async ({ actor, request, params, ip }) => {
  const invoiceId = requireUuidParam(params.invoiceId);
  const input = await parseJsonBody(request, dunningHoldSchema);
  return apiJson(await setDunningHold({ actor, invoiceId, input, ip }));
});

export const loader = () => methodNotAllowed(['PUT']);
