import type { ActionFunctionArgs } from '@remix-run/node';
import { clientIp } from '~/auth/login.server.ts';
import { requirePermission } from '~/auth/permissions.server.ts';
import { checkCustomerAccount } from '~/fina/checks.server.ts';
import { apiError, apiJson, methodNotAllowed, readApiError, requireUuidParam } from '~/utils/api.server.ts';
import { redirectWithToast } from '~/utils/toast.server.ts';
import { readFormData } from '~/utils/form-data.server.ts';
import { safeRedirect } from '~/utils/safe-redirect.ts';
import { INPUT_ERRORS, isSingleLineText } from '~/utils/validation.ts';

/**
 * POST /api/customers/{id}/fina-check: checks the customer's account with FINA
 * (app/fina/checks.server.ts) → the result as JSON. The customer card's
 * 'FINA provjera' form posts here without JavaScript: a form post is answered
 * with a redirect back (its `redirectTo`, a local path) and a toast.
 */
export async function loader() {
  return methodNotAllowed(['POST']);
}

/** The page to go back to: a local path; one with control characters is refused (400 on redirectTo), never put in a header. */
function localPath(value: FormDataEntryValue | null, fallback: string): string {
  if (typeof value === 'string' && !isSingleLineText(value)) throw apiError(400, INPUT_ERRORS.invalidCharacters, { errors: { redirectTo: [INPUT_ERRORS.invalidCharacters] } });
  return safeRedirect(value, fallback);
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['POST']);
  const isForm = (request.headers.get('Content-Type') ?? '').includes('form');
  const actor = await requirePermission(request, 'update:customer', { api: !isForm });
  const customerId = requireUuidParam(params.customerId);
  if (!isForm) return apiJson(await checkCustomerAccount({ actor, customerId, ip: clientIp(context) }));

  const back = localPath((await readFormData(request)).get('redirectTo'), `/customers/${customerId}`);
  try {
    const result = await checkCustomerAccount({ actor, customerId, ip: clientIp(context) });
    return redirectWithToast(back, {
      title: 'integrations.finaCheck.doneTitle',
      description: result.accountBlocked ? 'integrations.finaCheck.blocked' : 'integrations.finaCheck.notBlocked',
      params: { name: result.companyName, reason: result.blockageReason ?? '' },
      variant: result.accountBlocked ? 'destructive' : 'default',
    });
  } catch (error) {
    const refusal = await readApiError(error);
    if (!refusal) throw error;
    return redirectWithToast(back, {
      title: 'integrations.finaCheck.failedTitle',
      description: 'integrations.finaCheck.failed',
      params: { message: refusal.message },
      variant: 'destructive',
    });
  }
}
