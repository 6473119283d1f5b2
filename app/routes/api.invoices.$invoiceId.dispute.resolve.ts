import { resolveDispute } from '~/dilution/disputes.server.ts';
import { disputeResolveSchema } from '~/dilution/schemas.ts';
import { apiJson, methodNotAllowed, parseJsonBody, requireUuidParam } from '~/utils/api.server.ts';
import { apiAction } from '~/utils/api-route.server.ts';

/**
 * PUT /api/invoices/{id}/dispute/resolve {outcome, agreedAmount?, note} → 200 with {dispute, creditNote}: the open
 * dispute resolved, a credit note when reduced or upheld (docs/collections.md#dilution-and-disputes-resolved).
 * 409 when no dispute is open. Manager.
 */
export const action = apiAction({ method: 'PUT', allow: ['PUT'], permission: 'resolve:dispute' }, async ({ actor, request, params, ip }) => {
  const invoiceId = requireUuidParam(params.invoiceId);
  const input = await parseJsonBody(request, disputeResolveSchema);
  return apiJson(await resolveDispute({ actor, invoiceId, input, ip }));
});

export const loader = () => methodNotAllowed(['PUT']);
