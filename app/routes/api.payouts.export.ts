import { payoutExportSchema } from '~/payments/schemas.ts';
import { exportPayouts } from '~/payouts/payouts.server.ts';
import { methodNotAllowed, parseJsonBody } from '~/utils/api.server.ts';
import { apiAction } from '~/utils/api-route.server.ts';

/** POST /api/payouts/export {ids} (manager) → the pain.001.001.09 file as an attachment; the payouts are then 'exported'. */
export const action = apiAction({ method: 'POST', allow: ['POST'], permission: 'finance:invoice' }, async ({ actor, request, ip }) => {
  const { ids } = await parseJsonBody(request, payoutExportSchema);
  const file = await exportPayouts({ actor, ids, ip });
  return new Response(file.xml, {
    status: 200,
    headers: {
      'Content-Type': 'application/xml; charset=utf-8',
      'Content-Disposition': `attachment; filename="${file.fileName}"`,
      'Cache-Control': 'no-store',
      'X-Export-Batch-Id': file.batchId,
      'X-Total-Count': String(file.count),
    },
  });
});

export const loader = () => methodNotAllowed(['POST']);
