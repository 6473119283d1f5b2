import type { ActionFunctionArgs } from '@remix-run/node';
import { exportBook } from '~/exports/book-export.server.ts';
import { methodNotAllowed } from '~/utils/api.server.ts';
import { apiLoader } from '~/utils/api-route.server.ts';

/**
 * GET /api/exports/book.zip: Settings' 'Izvezi podatke' (admin): the book as
 * one CSV per entity in a zip, read from one snapshot and streamed while it is
 * read (app/exports/book-export.server.ts). A plain link, so it works without JavaScript.
 */
export const loader = apiLoader('export:data', async ({ actor, request, ip }) => {
  const file = await exportBook({ actor, ip, signal: request.signal });
  return new Response(file.stream, {
    headers: {
      'Content-Type': 'application/zip',
      'Content-Disposition': `attachment; filename="${file.fileName}"`,
      'Cache-Control': 'no-store',
    },
  });
});

export function action(_args: ActionFunctionArgs) {
  return methodNotAllowed(['GET']);
}
