import { requirePermission, type Permission } from '../auth/permissions.server.ts';
import { clientIp } from '../auth/login.server.ts';
import type { PublicUser } from '../auth/user-record.server.ts';
import { apiError, apiJson, methodNotAllowed, readApiError, readJsonObject } from '../utils/api.server.ts';
import { readFormData } from '../utils/form-data.server.ts';
import { safeRedirect } from '../utils/safe-redirect.ts';
import { redirectWithToast } from '../utils/toast.server.ts';
import { INPUT_ERRORS, isSingleLineText } from '../utils/validation.ts';

/**
 * The debtor-side POST routes (/api/debtor-links…, /api/invoices/{id}/dispute)
 * serve the API (JSON in, JSON out) and the staff pages' forms, which post
 * here without JavaScript like the customer card's 'FINA provjera': a form
 * post is answered with a redirect back to its `redirectTo` (a local path)
 * and a toast saying what happened or why it was refused.
 */
export function debtorPostAction<T>(frame: {
  permission: Permission;
  status?: number;
  /** false: the API call has no body (resend, revoke). */
  body?: boolean;
  run: (args: { actor: PublicUser; input: Record<string, unknown>; params: Record<string, string | undefined>; ip: string | null }) => Promise<T>;
  /** The toast of a form post that succeeded (i18n keys). */
  done: (result: T) => { title: string; description?: string; params?: Record<string, string | number> };
  fallback: (params: Record<string, string | undefined>) => string;
}) {
  return async ({ request, params, context }: { request: Request; params: Record<string, string | undefined>; context: unknown }): Promise<Response> => {
    if (request.method !== 'POST') return methodNotAllowed(['POST']);
    const isForm = (request.headers.get('Content-Type') ?? '').includes('form');
    const actor = await requirePermission(request, frame.permission, { api: !isForm });
    const ip = clientIp(context);
    if (!isForm) return apiJson(await frame.run({ actor, input: frame.body === false ? {} : await readJsonObject(request), params, ip }), { status: frame.status ?? 200 });

    const form = await readFormData(request);
    const redirectTo = form.get('redirectTo');
    if (typeof redirectTo === 'string' && !isSingleLineText(redirectTo)) {
      throw apiError(400, INPUT_ERRORS.invalidCharacters, { errors: { redirectTo: [INPUT_ERRORS.invalidCharacters] } });
    }
    const back = safeRedirect(redirectTo, frame.fallback(params));
    const input: Record<string, unknown> = {};
    for (const [name, value] of form) if (typeof value === 'string' && name !== 'redirectTo') input[name] = value;
    try {
      return redirectWithToast(back, frame.done(await frame.run({ actor, input, params, ip })));
    } catch (error) {
      const refusal = await readApiError(error);
      if (!refusal) throw error;
      return redirectWithToast(back, { title: 'debtors.toast.failedTitle', description: 'debtors.toast.failed', params: { message: refusal.message }, variant: 'destructive' });
    }
  };
}
