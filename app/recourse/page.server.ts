import { json } from '@remix-run/node';
import type { Actor } from '../auth/users.server.ts';
import { can } from '../auth/permissions.server.ts';
import { readApiError } from '../utils/api.server.ts';
import { redirectWithToast } from '../utils/toast.server.ts';
import { chargeBackInvoice } from './recourse.server.ts';
import { approveWriteOff, rejectWriteOff, requestWriteOff } from './write-off.server.ts';
import type { Role } from '../auth/schemas.ts';

/**
 * The page side of recourse: the invoice page's "Regres" and write-off forms
 * and the write-off decisions (the invoice page and /limits), turned into the
 * domain calls of ./recourse.server.ts and ./write-off.server.ts.
 */

export type RecourseIntent = 'charge-back' | 'request-write-off' | 'approve-write-off' | 'reject-write-off';

/** A refused recourse form, shown beside it: the intent, the request it was about, and the refusal (a code, shown by useRefusalText). */
export interface RecourseRefusal {
  recourse: RecourseIntent;
  requestId: string | null;
  status: number;
  message: string;
  errors?: Record<string, string[]>;
}

const DONE_TOASTS: Record<RecourseIntent, string> = {
  'charge-back': 'recourse.chargeBack.done',
  'request-write-off': 'recourse.writeOff.requested',
  'approve-write-off': 'recourse.requests.approved',
  'reject-write-off': 'recourse.requests.rejected',
};

/** Runs one recourse form's intent (already read by recourseIntentSchema) and answers a redirect with a toast or the refusal. */
export async function handleRecourseIntent(
  intent: { intent: RecourseIntent; requestId?: string },
  formData: FormData,
  { actor, ip, invoiceId, back }: { actor: Actor; ip: string | null; invoiceId: string | null; back: string },
) {
  const input = { reason: String(formData.get('reason') ?? '') };
  try {
    if (intent.intent === 'charge-back') await chargeBackInvoice({ actor, id: invoiceId ?? '', input, ip });
    else if (intent.intent === 'request-write-off') await requestWriteOff({ actor, invoiceId: invoiceId ?? '', input, ip });
    else if (intent.intent === 'approve-write-off') await approveWriteOff({ actor, id: intent.requestId ?? '', ip });
    else await rejectWriteOff({ actor, id: intent.requestId ?? '', input, ip });
    return redirectWithToast(back, { title: DONE_TOASTS[intent.intent] });
  } catch (error) {
    const problem = await readApiError(error);
    if (!problem) throw error;
    const body: RecourseRefusal = { recourse: intent.intent, requestId: intent.requestId ?? null, status: problem.status, message: problem.message, errors: problem.errors };
    return json(body, { status: problem.status });
  }
}

/** What the signed-in user may do here; the server checks again on every call. */
export function recourseRights(user: { id: string; role: Role }) {
  return { chargeBack: can(user, 'charge_back:invoice'), requestWriteOff: can(user, 'request:write_off'), decideWriteOff: can(user, 'decide:write_off'), userId: user.id };
}
