import { parseWithZod } from '@conform-to/zod/v4';
import { json, type ActionFunctionArgs } from '@remix-run/node';
import { clientIp } from '~/auth/login.server.ts';
import { setPasswordSchema } from '~/auth/schemas.ts';
import { readApiError } from '~/utils/api.server.ts';
import { readFormData } from '~/utils/form-data.server.ts';
import { redirectWithToast } from '~/utils/toast.server.ts';

/** Neither password goes back into the form. */
const hideFields = ['newPassword', 'confirmPassword'];

/**
 * The post of a page behind an emailed one-time link where someone chooses a password
 * (set-password.$token.tsx, reset-password.$token.tsx): the two passwords checked by the
 * shared schema, handed to `choose` with the link's token, home with the `done` toast. A
 * refusal comes back into the form; `linkFailed` says the refusal was the link's own (used
 * meanwhile in another tab, superseded), for a page that then shows its invalid-link state.
 */
export async function choosePasswordAction(
  { request, params, context }: ActionFunctionArgs,
  { choose, done }: { choose: (token: string, input: { newPassword: string; confirmPassword: string }, meta: { ip: string | null }) => Promise<unknown>; done: string },
) {
  const submission = parseWithZod(await readFormData(request), { schema: setPasswordSchema });
  if (submission.status !== 'success') return json({ result: submission.reply({ hideFields }), linkFailed: false }, { status: 400 });
  try {
    await choose(params.token ?? '', submission.value, { ip: clientIp(context) });
  } catch (error) {
    const problem = await readApiError(error);
    if (!problem) throw error;
    return json({ result: submission.reply({ formErrors: [problem.message], hideFields }), linkFailed: Boolean(problem.errors?.token) }, { status: problem.status });
  }
  return redirectWithToast('/', { title: done });
}
