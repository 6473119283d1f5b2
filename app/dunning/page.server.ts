import type { SubmissionResult } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import { json } from '@remix-run/node';
import type { Actor } from '../auth/users.server.ts';
import { readApiError } from '../utils/api.server.ts';
import { redirectWithToast } from '../utils/toast.server.ts';
import { setDunningHold } from './dunning.server.ts';
import { setDunningLevels } from './levels.server.ts';
import { dunningHoldSchema, dunningLevelsSettingSchema } from './schemas.ts';

/** The pages' posts of dunning (docs/screens.md): the levels on /settings and the hold on /invoices/{id}. PRG with a toast, or the refusal back into the form. */

/** /settings, intent dunning-levels (admin). */
export async function handleDunningLevels(formData: FormData, { actor, ip }: { actor: Actor; ip: string | null }) {
  const submission = parseWithZod(formData, { schema: dunningLevelsSettingSchema });
  if (submission.status !== 'success') return json({ intent: 'dunning-levels' as const, result: submission.reply() }, { status: 400 });
  try {
    await setDunningLevels({ actor, input: Object.fromEntries(formData), ip });
  } catch (error) {
    const problem = await readApiError(error);
    if (!problem) throw error;
    return json({ intent: 'dunning-levels' as const, result: submission.reply({ formErrors: [problem.message] }) }, { status: problem.status });
  }
  return redirectWithToast('/settings', { title: 'dunning.settings.saved' });
}

/** What the hold form gets back when it is refused: the submission with its errors. */
export type DunningHoldActionData = { intent: 'dunning-hold'; result: SubmissionResult<string[]> };

/** /invoices/{id}, intent dunning-hold (manager): the hold with its reason, or lifting it. */
export async function handleDunningHold(
  formData: FormData,
  { actor, ip, invoiceId, invoiceNumber }: { actor: Actor; ip: string | null; invoiceId: string; invoiceNumber: string },
) {
  const back = `/invoices/${invoiceId}`;
  const submission = parseWithZod(formData, { schema: dunningHoldSchema });
  if (submission.status !== 'success') return json({ intent: 'dunning-hold', result: submission.reply() } satisfies DunningHoldActionData, { status: 400 });
  try {
    await setDunningHold({ actor, invoiceId, input: { hold: submission.value.hold, reason: submission.value.reason ?? undefined }, ip });
  } catch (error) {
    const problem = await readApiError(error);
    if (!problem) throw error;
    return json({ intent: 'dunning-hold', result: submission.reply({ formErrors: [problem.message] }) } satisfies DunningHoldActionData, { status: problem.status });
  }
  return redirectWithToast(back, { title: submission.value.hold ? 'dunning.toast.held' : 'dunning.toast.lifted', params: { number: invoiceNumber } });
}
