import type { ActionFunctionArgs } from '@remix-run/node';
import { clientIp } from '~/auth/login.server.ts';
import { requirePermission } from '~/auth/permissions.server.ts';
import { resendEInvoice } from '~/einvoices/outgoing-send.server.ts';
import { apiJson, methodNotAllowed, requireUuidParam } from '~/utils/api.server.ts';

/** POST /api/einvoices/{id}/send (manager): a failed e-invoice is queued for sending again → 200 with it; 409 sent or already queued. */
export async function action({ request, params, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['POST']);
  const actor = await requirePermission(request, 'send:einvoice', { api: true });
  const id = requireUuidParam(params.id);
  return apiJson(await resendEInvoice({ actor, id, ip: clientIp(context) }));
}

export const loader = () => methodNotAllowed(['POST']);
