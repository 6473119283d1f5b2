import { pageTitle } from '~/utils/meta.ts';
import { parseWithZod } from '@conform-to/zod/v4';
import { Link as RadixLink, Text } from '@radix-ui/themes';
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Link, useActionData, useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { clientIp } from '~/auth/login.server.ts';
import { completePasswordReset, findPasswordResetLink } from '~/auth/password-reset.server.ts';
import { setPasswordSchema } from '~/auth/schemas.ts';
import { NewPasswordPage } from '~/components/new-password-page.tsx';
import { readApiError } from '~/utils/api.server.ts';
import { redirectWithToast } from '~/utils/toast.server.ts';
import { readFormData } from '~/utils/form-data.server.ts';
import { AlertCallout } from '~/components/kit/callouts.tsx';

// The token is in the URL: no Referer may carry it to another site. Not 'no-referrer': that makes the
// browser send `Origin: null` with the form post, which Remix refuses as a cross-site action.
export const meta: MetaFunction = ({ matches }) => [...pageTitle(matches, 'recovery.reset.title'), { name: 'referrer', content: 'same-origin' }];

/** The emailed one-time link of a forgotten password (app/auth/password-reset.server.ts). */
export async function loader({ params }: LoaderFunctionArgs) {
  const owner = params.token ? await findPasswordResetLink(params.token) : null;
  return json({ email: owner?.email ?? null }, { headers: { 'Cache-Control': 'no-store' } });
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const submission = parseWithZod(await readFormData(request), { schema: setPasswordSchema });
  const hideFields = ['newPassword', 'confirmPassword'];
  if (submission.status !== 'success') return json({ result: submission.reply({ hideFields }), linkFailed: false }, { status: 400 });
  try {
    await completePasswordReset(params.token ?? '', submission.value, { ip: clientIp(context) });
  } catch (error) {
    const problem = await readApiError(error);
    if (!problem) throw error;
    // A link that stopped working meanwhile (used in another tab, superseded) shows the invalid-link state.
    const linkFailed = Boolean(problem.errors?.token);
    return json({ result: submission.reply({ formErrors: [problem.message], hideFields }), linkFailed }, { status: problem.status });
  }
  return redirectWithToast('/', { title: 'recovery.reset.done' });
}

export default function ResetPasswordPage() {
  const { email } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation();
  return (
    <NewPasswordPage
      formId="reset-password"
      email={actionData?.linkFailed ? null : email}
      lastResult={actionData?.result}
      texts={{ title: 'recovery.reset.title', description: 'recovery.reset.description', submit: 'recovery.reset.submit' }}
      invalid={
        <>
          <AlertCallout testId="reset-link-invalid">{t('recovery.reset.invalid')}</AlertCallout>
          <Text size="2">
            <RadixLink asChild>
              <Link to="/forgot-password">{t('recovery.reset.requestNew')}</Link>
            </RadixLink>
          </Text>
        </>
      }
    />
  );
}
