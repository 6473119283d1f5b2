import { redirect, type LoaderFunctionArgs } from '@remix-run/node';
import { recordClick } from '~/email/send.server.ts';

/** GET /email/click/{token}/{index}: redirects only to a link stored with that email (no open redirect); 404 otherwise. */
export async function loader({ params }: LoaderFunctionArgs) {
  const token = params.token ?? '';
  const index = /^\d{1,4}$/.test(params.index ?? '') ? Number(params.index) : -1;
  const url = /^[a-f0-9]{16,128}$/i.test(token) && index >= 0 ? await recordClick(token.toLowerCase(), index) : null;
  if (!url || !/^https?:\/\//i.test(url)) return new Response('Not Found', { status: 404 });
  return redirect(url, { status: 302, headers: { 'Cache-Control': 'no-store' } });
}
