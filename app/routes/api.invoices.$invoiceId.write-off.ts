import { requestWriteOff } from '~/recourse/write-off.server.ts';
import { recourseReasonSchema } from '~/recourse/schemas.ts';
import { apiJson, methodNotAllowed, parseJsonBody, requireUuidParam } from '~/utils/api.server.ts';
import { apiAction } from '~/utils/api-route.server.ts';

/**
 * POST /api/invoices/{id}/write-off {reason} → 201 with the pending write-off request. Manager; 409 not financed,
 * a recourse invoice, already written off or a request pending (docs/lifecycle.md#recourse-and-write-off, docs/api.md).
 */
export const action = apiAction({ method: 'POST', allow: ['POST'], permission: 'request:write_off' }, async ({ actor, request, params, ip }) => {
  const invoiceId = requireUuidParam(params.invoiceId);
  const input = await parseJsonBody(request, recourseReasonSchema);
  return apiJson(await requestWriteOff({ actor, invoiceId, input, ip }), { status: 201 });
});

export const loader = () => methodNotAllowed(['POST']);
