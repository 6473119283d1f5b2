import type { ActionFunctionArgs } from '@remix-run/node';
import { clientIp } from '~/auth/login.server.ts';
import { requirePermission } from '~/auth/permissions.server.ts';
import { payoutExportSchema } from '~/payments/schemas.ts';
import { exportPayouts } from '~/payouts/payouts.server.ts';
import { methodNotAllowed, parseJsonBody } from '~/utils/api.server.ts';

/** POST /api/payouts/export {ids} (manager) → the pain.001.001.09 file as an attachment; the payouts are then 'exported'. */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['POST']);
  const actor = await requirePermission(request, 'finance:invoice', { api: true });
  const { ids } = await parseJsonBody(request, payoutExportSchema);
  const file = await exportPayouts({ actor, ids, ip: clientIp(context) });
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
}

export const loader = () => methodNotAllowed(['POST']);
