import type { SubmissionResult } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import { json } from '@remix-run/node';
import { can } from '../auth/permissions.server.ts';
import type { Actor } from '../auth/users.server.ts';
import { selectRows } from '../db.server.ts';
import { readApiError } from '../utils/api.server.ts';
import { businessDay } from '../utils/business-time.ts';
import { readIntent, unknownIntent } from '../utils/intent.server.ts';
import { readListUrl } from '../utils/list-url.ts';
import { redirectWithToast } from '../utils/toast.server.ts';
import type { Invoice } from '../../db/models/index.ts';
import type { RowOf } from '../../db/models/rows.ts';
import { approveAdjustment, listAdjustments, rejectAdjustment, requestAdjustment } from './adjustments.server.ts';
import { accountIntentSchema, adjustmentRejectSchema, adjustmentRequestSchema } from './schemas.ts';
import { clientAccountSummary, ledgerPage } from './statement.server.ts';

/**
 * The client page's 'Račun klijenta' section (docs/screens.md): what its
 * loader reads and what its forms post, so the route stays thin. The ledger's
 * page is `?ledgerPage=` (the last page, the newest entries, when absent).
 */

/** The request form offers the client's financed and paid invoices, newest first (a few hundred at most). */
const INVOICE_CHOICES = 300;

export async function loadClientAccount(request: Request, clientId: string, user: Actor) {
  const url = readListUrl(request);
  const asked = url.params.has('ledgerPage') ? url.pageOf('ledgerPage') : Number.MAX_SAFE_INTEGER;
  const today = businessDay();
  const [summary, ledger, pending, invoices] = await Promise.all([
    clientAccountSummary(clientId, today),
    ledgerPage(clientId, { page: asked }),
    listAdjustments(clientId, { status: 'pending', limit: 50 }),
    selectRows<RowOf<typeof Invoice, 'id' | 'invoice_number'>>(
      `SELECT id, invoice_number FROM invoices WHERE client_id = :clientId AND status IN ('financed', 'paid', 'charged_back', 'written_off') ORDER BY financed_at DESC NULLS LAST, id LIMIT :limit`,
      { clientId, limit: INVOICE_CHOICES },
    ),
  ]);
  return {
    summary,
    ledger,
    pendingAdjustments: pending.adjustments,
    invoiceChoices: invoices.map((invoice) => ({ id: invoice.id, number: invoice.invoice_number })),
    canAdjust: can(user, 'adjust:ledger'),
    statementDefaults: { from: `${today.slice(0, 8)}01`, to: today },
  };
}

export type AccountActionData = { intent: 'adjustment-request'; result: SubmissionResult<string[]> } | { intent: 'adjustment-decision'; id: string; error: string };

/** A post of the section's forms (intent adjustment-*): PRG back to the section with a toast, or the refusal into the form. */
export async function handleAccountAction(formData: FormData, { actor, ip, clientId }: { actor: Actor; ip: string | null; clientId: string }) {
  const intent = readIntent(formData, accountIntentSchema);
  if (!intent) return unknownIntent();
  const back = `/clients/${clientId}#account`;
  if (intent.intent === 'adjustment-request') {
    const submission = parseWithZod(formData, { schema: adjustmentRequestSchema });
    if (submission.status !== 'success') return json({ intent: 'adjustment-request' as const, result: submission.reply() }, { status: 400 });
    try {
      const adjustment = await requestAdjustment({ actor, clientId, input: submission.value, ip });
      return redirectWithToast(back, { title: adjustment.status === 'approved' ? 'ledger.toast.posted' : 'ledger.toast.pending' });
    } catch (error) {
      const problem = await readApiError(error);
      if (!problem) throw error;
      const result = submission.reply({ formErrors: problem.errors ? [] : [problem.message], fieldErrors: problem.errors ?? {} });
      return json({ intent: 'adjustment-request' as const, result }, { status: problem.status });
    }
  }
  try {
    if (intent.intent === 'adjustment-approve') {
      await approveAdjustment({ actor, id: intent.id, ip });
      return redirectWithToast(back, { title: 'ledger.toast.approved' });
    }
    const parsed = adjustmentRejectSchema.safeParse({ reason: formData.get('reason') ?? '' });
    if (!parsed.success) return json({ intent: 'adjustment-decision' as const, id: intent.id, error: parsed.error.issues[0].message }, { status: 400 });
    await rejectAdjustment({ actor, id: intent.id, reason: parsed.data.reason, ip });
    return redirectWithToast(back, { title: 'ledger.toast.rejected' });
  } catch (error) {
    const problem = await readApiError(error);
    if (!problem) throw error;
    return json({ intent: 'adjustment-decision' as const, id: intent.id, error: problem.message }, { status: problem.status });
  }
}
