import { assignEntry } from '~/banking/camt053.server.ts';
import { paymentJson } from '~/payments/payment-queries.server.ts';
import { apiJson, methodNotAllowed, readJsonObject, requireUuidParam } from '~/utils/api.server.ts';
import { apiAction } from '~/utils/api-route.server.ts';

/** POST /api/bank-statements/unmatched/{id}/assign {invoiceId} → 201 with the pending payment it records. */
export const action = apiAction({ method: 'POST', allow: ['POST'], permission: 'create:payment' }, async ({ actor, request, params, ip }) => {
  const id = requireUuidParam(params.id);
  const input = await readJsonObject(request);
  return apiJson(paymentJson(await assignEntry({ actor, id, input, ip })), { status: 201 });
});

export const loader = () => methodNotAllowed(['POST']);
