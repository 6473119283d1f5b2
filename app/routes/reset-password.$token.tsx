import { pageTitle } from '~/utils/meta.ts';
import { Link as RadixLink, Text } from '@radix-ui/themes';
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Link, useActionData, useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { completePasswordReset, findPasswordResetLink } from '~/auth/password-reset.server.ts';
import { NewPasswordPage } from '~/components/new-password-page.tsx';
import { AlertCallout } from '~/components/kit/callouts.tsx';
import { choosePasswordAction } from './password-link.server.ts';

// The token is in the URL: no Referer may carry it to another site. Not 'no-referrer': that makes the
// browser send `Origin: null` with the form post, which Remix refuses as a cross-site action.
export const meta: MetaFunction = ({ matches }) => [...pageTitle(matches, 'recovery.reset.title'), { name: 'referrer', content: 'same-origin' }];

/** The emailed one-time link of a forgotten password (app/auth/password-reset.server.ts). */
export async function loader({ params }: LoaderFunctionArgs) {
  const owner = params.token ? await findPasswordResetLink(params.token) : null;
  return json({ email: owner?.email ?? null }, { headers: { 'Cache-Control': 'no-store' } });
}

export const action = (args: ActionFunctionArgs) => choosePasswordAction(args, { choose: completePasswordReset, done: 'recovery.reset.done' });

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
