import type { ActionFunctionArgs } from '@remix-run/node';
import { clientIp } from '~/auth/login.server.ts';
import { requirePermission } from '~/auth/permissions.server.ts';
import { exportPayouts } from '~/payouts/payouts.server.ts';
import { methodNotAllowed, readApiError } from '~/utils/api.server.ts';
import { redirectWithToast } from '~/utils/toast.server.ts';
import { readFormData } from '~/utils/form-data.server.ts';
import { isSingleLineText } from '~/utils/validation.ts';

/**
 * POST /payments/export: the payouts tab's export button (a native form post,
 * so the browser saves the file whether or not JavaScript runs). A resource
 * route because a page action's own Response would be rendered as page data.
 * A refusal goes back to the tab with the reason in a toast.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['POST']);
  const actor = await requirePermission(request, 'finance:invoice');
  const formData = await readFormData(request);
  const returnTo = String(formData.get('returnTo') ?? '');
  const back = /^\/payments(\?[^\s]*)?$/.test(returnTo) && isSingleLineText(returnTo) ? returnTo : '/payments?tab=payouts';
  try {
    const file = await exportPayouts({ actor, ids: formData.getAll('ids').map(String), ip: clientIp(context) });
    return new Response(file.xml, {
      headers: {
        'Content-Type': 'application/xml; charset=utf-8',
        'Content-Disposition': `attachment; filename="${file.fileName}"`,
        'Cache-Control': 'no-store',
      },
    });
  } catch (error) {
    const problem = await readApiError(error);
    if (!problem) throw error;
    return redirectWithToast(back, { title: 'payments.toast.errorTitle', description: 'payments.toast.exportFailed', params: { reason: problem.message }, variant: 'destructive' });
  }
}

export const loader = () => methodNotAllowed(['POST']);
