import { listBackups, requestBackup } from '~/backups/backups.server.ts';
import { apiJson, listParams } from '~/utils/api.server.ts';
import { apiAction, apiLoader, apiList } from '~/utils/api-route.server.ts';

/**
 * GET /api/backups: the database backups, newest first, ?limit ?offset, X-Total-Count (admin).
 * POST /api/backups: asks for a new one (201 with it, pending; 409 while one is in progress).
 */
export const loader = apiLoader('manage:backups', async ({ actor, request }) => {
  const { limit, offset } = listParams(request);
  const { backups, total } = await listBackups({ actor, limit, offset });
  return apiList(backups, total);
});

export const action = apiAction({ method: 'POST', allow: ['GET', 'POST'], permission: 'manage:backups' }, async ({ actor, ip }) => {
  return apiJson(await requestBackup({ actor, ip }), { status: 201 });
});
