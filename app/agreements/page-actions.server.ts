import { parseWithZod } from '@conform-to/zod/v4';
import { json } from '@remix-run/node';
import { AUTH_ERRORS } from '../auth/schemas.ts';
import type { Actor } from '../auth/users.server.ts';
import { readApiError } from '../utils/api.server.ts';
import { readIntent } from '../utils/intent.server.ts';
import { redirectWithToast, toastHeaders } from '../utils/toast.server.ts';
import { createAgreement, markAgreementSigned, reviseAgreement, sendAgreementForSignature } from './agreements.server.ts';
import { AGREEMENT_ERRORS, agreementIdSchema, agreementPageIntentSchema, agreementTermsSchema } from './schemas.ts';

/**
 * The client page's agreement posts (docs/screens.md#pages): the create/revise form (a page
 * panel without JavaScript, the dialog with it) and the send / mark-signed buttons
 * of a version. Refusals of the form come back into it; the buttons' as a toast.
 */

export async function handleAgreementPost(formData: FormData, { actor, ip, clientId }: { actor: Actor; ip: string | null; clientId: string }) {
  const intent = readIntent(formData, agreementPageIntentSchema)?.intent;
  const back = `/clients/${clientId}#agreement`;
  if (intent === 'agreement-create' || intent === 'agreement-revise') {
    const submission = parseWithZod(formData, { schema: agreementTermsSchema });
    if (submission.status !== 'success') return json({ intent, result: submission.reply() }, { status: 400 });
    let toast;
    try {
      if (intent === 'agreement-create') {
        await createAgreement({ actor, clientId, input: submission.value, ip });
        toast = { title: 'agreements.toast.created' };
      } else {
        const target = agreementIdSchema.safeParse({ agreementId: formData.get('agreementId') });
        if (!target.success) return json({ intent, result: submission.reply({ formErrors: [AGREEMENT_ERRORS.notFound] }) }, { status: 404 });
        const saved = await reviseAgreement({ actor, id: target.data.agreementId, input: submission.value, ip });
        toast = { title: saved.id === target.data.agreementId ? 'agreements.toast.updated' : 'agreements.toast.revised' };
      }
    } catch (error) {
      const problem = await readApiError(error);
      if (!problem) throw error;
      const result = submission.reply({ formErrors: problem.errors ? [] : [problem.message], fieldErrors: problem.errors ?? {} });
      return json({ intent, result }, { status: problem.status });
    }
    // The dialog (JavaScript) closes where it is; the panel redirects (PRG) back to the section.
    if (formData.get('via') === 'dialog') return json({ intent, result: submission.reply({ resetForm: true }), created: true }, { headers: await toastHeaders(toast) });
    return redirectWithToast(back, toast);
  }

  const target = agreementIdSchema.safeParse({ agreementId: formData.get('agreementId') });
  const failed = { title: 'agreements.toast.actionFailed', variant: 'destructive' as const };
  if (!target.success || (intent !== 'agreement-send' && intent !== 'agreement-signed')) return redirectWithToast(back, { ...failed, description: AGREEMENT_ERRORS.notFound });
  try {
    if (intent === 'agreement-send') {
      await sendAgreementForSignature({ actor, id: target.data.agreementId, ip });
      return redirectWithToast(back, { title: 'agreements.toast.sent' });
    }
    await markAgreementSigned({ actor, id: target.data.agreementId, signedOn: formData.get('signedOn'), ip });
    return redirectWithToast(back, { title: 'agreements.toast.signed' });
  } catch (error) {
    const problem = await readApiError(error);
    if (!problem) throw error;
    const description = problem.status === 403 && problem.code === AUTH_ERRORS.forbidden ? 'agreements.errors.forbidden' : problem.code;
    return redirectWithToast(back, { ...failed, description, params: problem.params });
  }
}
