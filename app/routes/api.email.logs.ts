import type { LoaderFunctionArgs } from '@remix-run/node';
import { requirePermission } from '~/auth/permissions.server.ts';
import { listLogs } from '~/email/logs.server.ts';
import { apiJson, methodNotAllowed, listParams } from '~/utils/api.server.ts';

/** GET /api/email/logs: newest first; ?campaignId ?limit ?offset; X-Total-Count. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requirePermission(request, 'read:all', { api: true });
  const { limit, offset } = listParams(request);
  const campaignId = new URL(request.url).searchParams.get('campaignId') ?? '';
  const { logs, total } = await listLogs({ limit, offset, campaignId: /^[0-9a-f-]{36}$/i.test(campaignId) ? campaignId : undefined });
  return apiJson(logs, { headers: { 'X-Total-Count': String(total) } });
}

export const action = () => methodNotAllowed(['GET']);
