import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { clientIp } from '~/auth/login.server.ts';
import { requirePermission } from '~/auth/permissions.server.ts';
import { listBackups, requestBackup } from '~/backups/backups.server.ts';
import { apiJson, listParams, methodNotAllowed } from '~/utils/api.server.ts';

/**
 * GET /api/backups: the database backups, newest first, ?limit ?offset, X-Total-Count (admin).
 * POST /api/backups: asks for a new one (201 with it, pending; 409 while one is in progress).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const actor = await requirePermission(request, 'manage:backups', { api: true });
  const { limit, offset } = listParams(request);
  const { backups, total } = await listBackups({ actor, limit, offset });
  return apiJson(backups, { headers: { 'X-Total-Count': String(total) } });
}

export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['GET', 'POST']);
  const actor = await requirePermission(request, 'manage:backups', { api: true });
  return apiJson(await requestBackup({ actor, ip: clientIp(context) }), { status: 201 });
}
