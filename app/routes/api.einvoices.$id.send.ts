import { resendEInvoice } from '~/einvoices/outgoing-send.server.ts';
import { apiJson, methodNotAllowed, requireUuidParam } from '~/utils/api.server.ts';
import { apiAction } from '~/utils/api-route.server.ts';

/** POST /api/einvoices/{id}/send (manager): a failed e-invoice is queued for sending again → 200 with it; 409 sent or already queued. */
export const action = apiAction({ method: 'POST', allow: ['POST'], permission: 'send:einvoice' }, async ({ actor, params, ip }) => {
  const id = requireUuidParam(params.id);
  return apiJson(await resendEInvoice({ actor, id, ip }));
});

export const loader = () => methodNotAllowed(['POST']);
