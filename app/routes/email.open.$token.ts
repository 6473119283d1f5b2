import type { LoaderFunctionArgs } from '@remix-run/node';
import { recordOpen } from '~/email/send.server.ts';

/** GET /email/open/{token}.gif: the open pixel (public; an unknown token changes nothing and gets the same pixel). */
const PIXEL = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

export async function loader({ params }: LoaderFunctionArgs) {
  const token = /^([a-f0-9]{16,128})\.gif$/i.exec(params.token ?? '')?.[1];
  if (!token) return new Response('Not Found', { status: 404 });
  await recordOpen(token.toLowerCase());
  return new Response(PIXEL, {
    headers: { 'Content-Type': 'image/gif', 'Content-Length': String(PIXEL.length), 'Cache-Control': 'no-store, max-age=0' },
  });
}
