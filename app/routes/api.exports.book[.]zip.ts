import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { clientIp } from '~/auth/login.server.ts';
import { requirePermission } from '~/auth/permissions.server.ts';
import { exportBook } from '~/exports/book-export.server.ts';
import { methodNotAllowed } from '~/utils/api.server.ts';

/**
 * GET /api/exports/book.zip: Settings' 'Izvezi podatke' (admin): the book as
 * one CSV per entity in a zip, read from one snapshot and streamed while it is
 * read (app/exports/book-export.server.ts). A plain link, so it works without JavaScript.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const actor = await requirePermission(request, 'export:data', { api: true });
  const file = await exportBook({ actor, ip: clientIp(context), signal: request.signal });
  return new Response(file.stream, {
    headers: {
      'Content-Type': 'application/zip',
      'Content-Disposition': `attachment; filename="${file.fileName}"`,
      'Cache-Control': 'no-store',
    },
  });
}

export function action(_args: ActionFunctionArgs) {
  return methodNotAllowed(['GET']);
}
