import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { clientIp } from '~/auth/login.server.ts';
import { requirePermission } from '~/auth/permissions.server.ts';
import { openBackupDownload } from '~/backups/backups.server.ts';
import { methodNotAllowed, requireUuidParam } from '~/utils/api.server.ts';

/** GET /api/backups/{id}/download: a completed backup file (admin), checked against its SHA-256, streamed, logged. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const actor = await requirePermission(request, 'manage:backups', { api: true });
  const file = await openBackupDownload({ actor, id: requireUuidParam(params.id), ip: clientIp(context) });
  return new Response(file.stream, {
    headers: {
      'Content-Type': 'application/zip',
      'Content-Length': String(file.size),
      'Content-Disposition': `attachment; filename="${file.fileName}"`,
      'Cache-Control': 'no-store',
    },
  });
}

export function action(_args: ActionFunctionArgs) {
  return methodNotAllowed(['GET']);
}
