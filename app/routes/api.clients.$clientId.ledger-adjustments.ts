import { listAdjustments, requestAdjustment } from '~/ledger/adjustments.server.ts';
import { adjustmentRequestSchema } from '~/ledger/schemas.ts';
import { apiJson, listParams, parseJsonBody } from '~/utils/api.server.ts';
import { apiAction, apiLoader, apiList } from '~/utils/api-route.server.ts';

/** GET /api/clients/{id}/ledger-adjustments: newest first; ?status (pending|approved|rejected; all by default), ?limit, ?offset; X-Total-Count. */
export const loader = apiLoader('read:all', async ({ request, params }) => {
  const status = new URL(request.url).searchParams.get('status');
  const { limit, offset } = listParams(request);
  const { adjustments, total } = await listAdjustments(params.clientId ?? '', { status, limit, offset });
  return apiList(adjustments, total);
});

/**
 * POST /api/clients/{id}/ledger-adjustments {amount, reason, invoiceId?} → 201: posted at once (approved) up to the
 * book's four-eyes amount, else pending (docs/money.md#the-clients-account). Manager.
 */
export const action = apiAction({ method: 'POST', allow: ['GET', 'POST'], permission: 'adjust:ledger' }, async ({ actor, request, params, ip }) => {
  const input = await parseJsonBody(request, adjustmentRequestSchema);
  const created = await requestAdjustment({ actor, clientId: params.clientId ?? '', input, ip });
  return apiJson(created, { status: 201 });
});
