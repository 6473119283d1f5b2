import type { LoaderFunctionArgs } from '@remix-run/node';
import { clientIp } from '~/auth/login.server.ts';
import { fileResponse } from '~/documents/file-response.server.ts';
import { noticeFileByToken } from '~/debtors/links.server.ts';
import { assertRegistrationRate } from '~/onboarding/rate-limit.server.ts';

/** /debtor/{token}/notice.pdf: the notice of assignment through the debtor's link (public; 404/410 for a link that no longer works). */
export async function loader({ params, context }: LoaderFunctionArgs) {
  const ip = clientIp(context);
  await assertRegistrationRate(ip, undefined, 'debtor');
  const file = await noticeFileByToken(params.token ?? '', ip);
  if (!file.ok) return new Response(file.status === 404 ? 'Not Found' : 'Gone', { status: file.status, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
  return fileResponse({ bytes: file.bytes, mimeType: 'application/pdf', fileName: file.fileName }, 'attachment');
}
