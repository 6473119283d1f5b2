import { getFormProps, useForm } from '@conform-to/react';
import { pageTitle } from '~/utils/meta.ts';
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4';
import { Button, Callout, Card, Flex, Heading, Link as RadixLink, Text } from '@radix-ui/themes';
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { clientIp } from '~/auth/login.server.ts';
import { completePasswordReset, findPasswordResetLink } from '~/auth/password-reset.server.ts';
import { setPasswordSchema } from '~/auth/schemas.ts';
import { FormErrors, PasswordField } from '~/components/forms.tsx';
import { readApiError } from '~/utils/api.server.ts';
import { redirectWithToast } from '~/utils/toast.server.ts';
import { readFormData } from '~/utils/form-data.server.ts';

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
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: 'reset-password',
    lastResult: actionData?.result,
    constraint: getZodConstraint(setPasswordSchema),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: setPasswordSchema }),
  });
  const valid = email !== null && !actionData?.linkFailed;
  return (
    <main className="centered-page">
      <Card size="4" style={{ width: 420, maxWidth: '100%', textAlign: 'left' }}>
        <Heading as="h1" size="5" mb="2">
          {t('recovery.reset.title')}
        </Heading>
        {valid ? (
          <Form method="post" {...getFormProps(form)}>
            <Flex direction="column" gap="3">
              <Text color="gray">{t('recovery.reset.description', { email })}</Text>
              <PasswordField label={t('profile.newPassword')} meta={fields.newPassword} autoComplete="new-password" />
              <PasswordField label={t('profile.confirmPassword')} meta={fields.confirmPassword} autoComplete="new-password" />
              <FormErrors errors={form.errors} />
              <Button type="submit" disabled={navigation.state === 'submitting'}>
                {t('recovery.reset.submit')}
              </Button>
            </Flex>
          </Form>
        ) : (
          <Flex direction="column" gap="3">
            <Callout.Root color="red" role="alert" data-testid="reset-link-invalid">
              <Callout.Text>{t('recovery.reset.invalid')}</Callout.Text>
            </Callout.Root>
            <Text size="2">
              <RadixLink asChild>
                <Link to="/forgot-password">{t('recovery.reset.requestNew')}</Link>
              </RadixLink>
            </Text>
          </Flex>
        )}
      </Card>
    </main>
  );
}
