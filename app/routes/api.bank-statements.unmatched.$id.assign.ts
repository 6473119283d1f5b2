import type { ActionFunctionArgs } from '@remix-run/node';
import { clientIp } from '~/auth/login.server.ts';
import { requirePermission } from '~/auth/permissions.server.ts';
import { assignEntry } from '~/banking/camt053.server.ts';
import { paymentJson } from '~/payments/payment-queries.server.ts';
import { apiJson, methodNotAllowed, readJsonObject, requireUuidParam } from '~/utils/api.server.ts';

/** POST /api/bank-statements/unmatched/{id}/assign {invoiceId} → 201 with the pending payment it records. */
export async function action({ request, params, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['POST']);
  const actor = await requirePermission(request, 'create:payment', { api: true });
  const id = requireUuidParam(params.id);
  const input = await readJsonObject(request);
  return apiJson(paymentJson(await assignEntry({ actor, id, input, ip: clientIp(context) })), { status: 201 });
}

export const loader = () => methodNotAllowed(['POST']);
