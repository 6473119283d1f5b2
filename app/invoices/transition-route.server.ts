import type { ActionFunctionArgs } from '@remix-run/node';
import { clientIp } from '../auth/login.server.ts';
import { requirePermission, type Permission } from '../auth/permissions.server.ts';
import { apiJson, methodNotAllowed, readJsonObject, requireUuidParam } from '../utils/api.server.ts';
import { approveInvoice, rejectInvoice, verifyInvoice } from './invoice-decisions.server.ts';
import { financeInvoice } from './financing.server.ts';
import type { InvoiceRejectInput } from './schemas.ts';

/**
 * The action of PUT /api/invoices/{id}/verify|approve|finance|reject: the
 * permission first (401/403 before anything else), then the id (404), then
 * the domain transition; 200 with the invoice.
 */
const TRANSITIONS = {
  verify: { permission: 'verify:invoice', run: verifyInvoice },
  approve: { permission: 'approve:invoice', run: approveInvoice },
  finance: { permission: 'finance:invoice', run: financeInvoice },
} as const satisfies Record<string, { permission: Permission; run: unknown }>;

export function transitionAction(verb: keyof typeof TRANSITIONS | 'reject') {
  return async ({ request, params, context }: ActionFunctionArgs) => {
    if (request.method !== 'PUT') return methodNotAllowed(['PUT']);
    const ip = clientIp(context);
    if (verb === 'reject') {
      const actor = await requirePermission(request, 'reject:invoice', { api: true });
      const id = requireUuidParam(params.invoiceId);
      const input = (await readJsonObject(request)) as InvoiceRejectInput;
      return apiJson(await rejectInvoice({ actor, id, input, ip }));
    }
    const { permission, run } = TRANSITIONS[verb];
    const actor = await requirePermission(request, permission, { api: true });
    const id = requireUuidParam(params.invoiceId);
    return apiJson(await run({ actor, id, ip }));
  };
}
