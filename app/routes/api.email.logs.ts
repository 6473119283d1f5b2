import { listLogs } from '~/email/logs.server.ts';
import { methodNotAllowed, listParams } from '~/utils/api.server.ts';
import { apiLoader, apiList } from '~/utils/api-route.server.ts';

/** GET /api/email/logs: newest first; ?campaignId ?limit ?offset; X-Total-Count. */
export const loader = apiLoader('read:all', async ({ request }) => {
  const { limit, offset } = listParams(request);
  const campaignId = new URL(request.url).searchParams.get('campaignId') ?? '';
  const { logs, total } = await listLogs({ limit, offset, campaignId: /^[0-9a-f-]{36}$/i.test(campaignId) ? campaignId : undefined });
  return apiList(logs, total);
});

export const action = () => methodNotAllowed(['GET']);
