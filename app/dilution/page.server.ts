import type { SubmissionResult } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import { json } from '@remix-run/node';
import { can } from '../auth/permissions.server.ts';
import type { Actor } from '../auth/users.server.ts';
import { readApiError } from '../utils/api.server.ts';
import { readIntent } from '../utils/intent.server.ts';
import { redirectWithToast } from '../utils/toast.server.ts';
import { addCreditNote, listCreditNotes } from './credit-notes.server.ts';
import { invoiceDisputes } from '../debtors/disputes.server.ts';
import { resolveDispute } from './disputes.server.ts';
import { creditNoteSchema, dilutionIntentSchema, disputeResolveSchema } from './schemas.ts';

/**
 * The invoice page's dilution sections (docs/screens.md): its credit notes
 * with the form to enter one, and its dispute with the form to resolve it.
 * What the loader reads and what the forms post, so the route stays thin.
 */

/** The credit notes shown on an invoice page (an invoice has a handful; the API pages them). */
const CREDIT_NOTES_SHOWN = 100;

export async function loadInvoiceDilution(invoiceId: string, user: Actor) {
  const [creditNotes, disputes] = await Promise.all([listCreditNotes(invoiceId, { limit: CREDIT_NOTES_SHOWN }), invoiceDisputes(invoiceId)]);
  return { creditNotes: creditNotes.items, creditNoteCount: creditNotes.total, disputes, canCredit: can(user, 'record:credit_note'), canResolve: can(user, 'resolve:dispute') };
}

export type DilutionActionData = { intent: 'credit-note' | 'dispute-resolve'; result: SubmissionResult<string[]> };

/** Whether a post is one of the dilution forms (the page's other posts are its decisions). */
export const isDilutionPost = (formData: FormData) => readIntent(formData, dilutionIntentSchema) !== null;

/** A post of the credit note or dispute form: PRG back to the invoice with a toast, or the refusal into the form. */
export async function handleDilutionAction(formData: FormData, { actor, ip, invoiceId }: { actor: Actor; ip: string | null; invoiceId: string }) {
  // The raw strings: the domain validates them again with the same schema (the parsed amounts are cents).
  const text = (name: string) => String(formData.get(name) ?? '');
  if (readIntent(formData, dilutionIntentSchema)?.intent === 'credit-note') {
    const submission = parseWithZod(formData, { schema: creditNoteSchema });
    return answer('credit-note', submission, async () => {
      const note = await addCreditNote({ actor, invoiceId, ip, input: { number: text('number'), issueDate: text('issueDate'), amount: text('amount'), reason: text('reason') } });
      return redirectWithToast(`/invoices/${invoiceId}#credit-notes`, { title: 'dilution.toast.creditNoteRecorded', params: { number: note.number } });
    });
  }
  const submission = parseWithZod(formData, { schema: disputeResolveSchema });
  return answer('dispute-resolve', submission, async () => {
    const outcome = submission.status === 'success' ? submission.value.outcome : 'rejected';
    await resolveDispute({ actor, invoiceId, ip, input: { outcome, agreedAmount: text('agreedAmount'), note: text('note') } });
    return redirectWithToast(`/invoices/${invoiceId}#dispute`, { title: 'dilution.toast.disputeResolved' });
  });
}

/** The form's answer: 400 with the schema's errors, the domain's refusal into the form, or the domain's redirect. */
async function answer(
  intent: DilutionActionData['intent'],
  submission: { status?: string; reply: (options?: { formErrors?: string[]; fieldErrors?: Record<string, string[]> }) => SubmissionResult<string[]> },
  run: () => Promise<Response>,
) {
  if (submission.status !== 'success') return json({ intent, result: submission.reply() } satisfies DilutionActionData, { status: 400 });
  try {
    return await run();
  } catch (error) {
    const problem = await readApiError(error);
    if (!problem) throw error;
    const result = submission.reply({ formErrors: problem.errors ? [] : [problem.message], fieldErrors: problem.errors ?? {} });
    return json({ intent, result } satisfies DilutionActionData, { status: problem.status });
  }
}
