import { pageTitle } from '~/utils/meta.ts';
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Link, useActionData, useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { findSetPasswordToken, setPasswordWithToken } from '~/auth/users.server.ts';
import { NewPasswordPage } from '~/components/new-password-page.tsx';
import { AlertCallout } from '~/components/kit/callouts.tsx';
import { choosePasswordAction } from './password-link.server.ts';

// same-origin keeps the token out of other sites' Referer; 'no-referrer' made a form post without
// JavaScript carry `Origin: null`, which Remix refuses as a cross-site action (a 500).
export const meta: MetaFunction = ({ matches }) => [...pageTitle(matches, 'setPassword.title'), { name: 'referrer', content: 'same-origin' }];

/** The one-time link a new staff user follows to choose their password (docs/api.md). */
export async function loader({ params }: LoaderFunctionArgs) {
  const owner = params.token ? await findSetPasswordToken(params.token) : null;
  return json({ email: owner?.email ?? null });
}

export const action = (args: ActionFunctionArgs) => choosePasswordAction(args, { choose: setPasswordWithToken, done: 'setPassword.done' });

export default function SetPasswordPage() {
  const { email } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation();
  return (
    <NewPasswordPage
      formId="set-password"
      email={email}
      lastResult={actionData?.result}
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
