import type { ActionFunctionArgs } from '@remix-run/node';
import { openBackupDownload } from '~/backups/backups.server.ts';
import { methodNotAllowed, requireUuidParam } from '~/utils/api.server.ts';
import { apiLoader } from '~/utils/api-route.server.ts';

/** GET /api/backups/{id}/download: a completed backup file (admin), checked against its SHA-256, streamed, logged. */
export const loader = apiLoader('manage:backups', async ({ actor, params, ip }) => {
  const file = await openBackupDownload({ actor, id: requireUuidParam(params.id), ip });
  return new Response(file.stream, {
    headers: {
      'Content-Type': 'application/zip',
      'Content-Length': String(file.size),
      'Content-Disposition': `attachment; filename="${file.fileName}"`,
      'Cache-Control': 'no-store',
    },
  });
});

export function action(_args: ActionFunctionArgs) {
  return methodNotAllowed(['GET']);
}
