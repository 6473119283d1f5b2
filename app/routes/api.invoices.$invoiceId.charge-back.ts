import { chargeBackInvoice } from '~/recourse/recourse.server.ts';
import { recourseReasonSchema } from '~/recourse/schemas.ts';
import { apiJson, methodNotAllowed, parseJsonBody, requireUuidParam } from '~/utils/api.server.ts';
import { apiAction } from '~/utils/api-route.server.ts';

/**
 * PUT /api/invoices/{id}/charge-back {reason} → 200 with the charged-back invoice. Manager; 409 not financed,
 * non-recourse or already charged back (docs/lifecycle.md#recourse-and-write-off, docs/api.md).
 */
export const action = apiAction({ method: 'PUT', allow: ['PUT'], permission: 'charge_back:invoice' }, async ({ actor, request, params, ip }) => {
  const id = requireUuidParam(params.invoiceId);
  const input = await parseJsonBody(request, recourseReasonSchema);
  return apiJson(await chargeBackInvoice({ actor, id, input, ip }));
});

export const loader = () => methodNotAllowed(['PUT']);
