import { pageTitle } from '~/utils/meta.ts';
import { parseWithZod } from '@conform-to/zod/v4';
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Link, useActionData, useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { clientIp } from '~/auth/login.server.ts';
import { setPasswordSchema } from '~/auth/schemas.ts';
import { findSetPasswordToken, setPasswordWithToken } from '~/auth/users.server.ts';
import { NewPasswordPage } from '~/components/new-password-page.tsx';
import { readApiError } from '~/utils/api.server.ts';
import { redirectWithToast } from '~/utils/toast.server.ts';
import { readFormData } from '~/utils/form-data.server.ts';
import { AlertCallout } from '~/components/kit/callouts.tsx';

// same-origin keeps the token out of other sites' Referer; 'no-referrer' made a form post without
// JavaScript carry `Origin: null`, which Remix refuses as a cross-site action (a 500).
export const meta: MetaFunction = ({ matches }) => [...pageTitle(matches, 'setPassword.title'), { name: 'referrer', content: 'same-origin' }];

/** The one-time link a new staff user follows to choose their password (docs/api.md). */
export async function loader({ params }: LoaderFunctionArgs) {
  const owner = params.token ? await findSetPasswordToken(params.token) : null;
  return json({ email: owner?.email ?? null });
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const submission = parseWithZod(await readFormData(request), { schema: setPasswordSchema });
  if (submission.status !== 'success') return json(submission.reply({ hideFields: ['newPassword', 'confirmPassword'] }), { status: 400 });
  try {
    await setPasswordWithToken(params.token ?? '', submission.value, { ip: clientIp(context) });
  } catch (error) {
    const problem = await readApiError(error);
    if (!problem) throw error;
    return json(submission.reply({ formErrors: [problem.message], hideFields: ['newPassword', 'confirmPassword'] }), { status: problem.status });
  }
  return redirectWithToast('/', { title: 'setPassword.done' });
}

export default function SetPasswordPage() {
  const { email } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const { t } = useTranslation();
  return (
    <NewPasswordPage
      formId="set-password"
      email={email}
      lastResult={lastResult}
      texts={{ title: 'setPassword.title', description: 'setPassword.description', submit: 'setPassword.submit' }}
      invalid={
        <>
          <AlertCallout>{t('setPassword.invalid')}</AlertCallout>
          <Link to="/">{t('notFound.back')}</Link>
        </>
      }
    />
  );
}
