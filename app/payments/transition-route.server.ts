import type { ActionFunctionArgs } from '@remix-run/node';
import { clientIp } from '../auth/login.server.ts';
import { requirePermission } from '../auth/permissions.server.ts';
import { apiJson, methodNotAllowed, requireUuidParam } from '../utils/api.server.ts';
import { confirmPayment, failPayment, refundPayment } from './payment-transitions.server.ts';
import { paymentJson } from './payment-queries.server.ts';

const TRANSITIONS = { confirm: confirmPayment, fail: failPayment, refund: refundPayment } as const;

/** PUT /api/payments/{id}/confirm|fail|refund (manager): permission first (401/403), then the id (404), then the transition (409). */
export function paymentTransitionAction(verb: keyof typeof TRANSITIONS) {
  return async ({ request, params, context }: ActionFunctionArgs) => {
    if (request.method !== 'PUT') return methodNotAllowed(['PUT']);
    const actor = await requirePermission(request, 'confirm:payment', { api: true });
    const id = requireUuidParam(params.id);
    return apiJson(paymentJson(await TRANSITIONS[verb]({ actor, id, ip: clientIp(context) })));
  };
}
