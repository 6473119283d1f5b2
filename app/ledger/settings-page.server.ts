import { parseWithZod } from '@conform-to/zod/v4';
import { json } from '@remix-run/node';
import type { Actor } from '../auth/users.server.ts';
import { readApiError } from '../utils/api.server.ts';
import { redirectWithToast } from '../utils/toast.server.ts';
import { setFourEyesAmount } from './book-settings.server.ts';
import { fourEyesSettingSchema } from './schemas.ts';

/** The /settings post of the book setting (intent ledger-four-eyes): PRG with a toast, or the refusal back into the form. */
export async function handleFourEyesSetting(formData: FormData, { actor, ip }: { actor: Actor; ip: string | null }) {
  const submission = parseWithZod(formData, { schema: fourEyesSettingSchema });
  if (submission.status !== 'success') return json({ intent: 'ledger-four-eyes' as const, result: submission.reply() }, { status: 400 });
  try {
    await setFourEyesAmount({ actor, amount: submission.value.amount, ip });
  } catch (error) {
    const problem = await readApiError(error);
    if (!problem) throw error;
    return json({ intent: 'ledger-four-eyes' as const, result: submission.reply({ formErrors: [problem.message] }) }, { status: problem.status });
  }
  return redirectWithToast('/settings', { title: 'ledger.toast.settingSaved' });
}
