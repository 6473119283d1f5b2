import { getFormProps, useForm } from '@conform-to/react';
import { pageTitle } from '~/utils/meta.ts';
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4';
import { Button, Callout, Card, Flex, Heading, Text } from '@radix-ui/themes';
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { clientIp } from '~/auth/login.server.ts';
import { setPasswordSchema } from '~/auth/schemas.ts';
import { findSetPasswordToken, setPasswordWithToken } from '~/auth/users.server.ts';
import { FormErrors, PasswordField } from '~/components/forms.tsx';
import { readApiError } from '~/utils/api.server.ts';
import { redirectWithToast } from '~/utils/toast.server.ts';
import { readFormData } from '~/utils/form-data.server.ts';

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
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: 'set-password',
    lastResult,
    constraint: getZodConstraint(setPasswordSchema),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: setPasswordSchema }),
  });
  return (
    <Flex asChild className="centered-page">
      <main>
        <Card size="4" style={{ width: 420, maxWidth: '100%', textAlign: 'left' }}>
          <Heading as="h1" size="5" mb="2">
            {t('setPassword.title')}
          </Heading>
          {email ? (
            <Form method="post" {...getFormProps(form)}>
              <Flex direction="column" gap="3">
                <Text color="gray">{t('setPassword.description', { email })}</Text>
                <PasswordField label={t('profile.newPassword')} meta={fields.newPassword} autoComplete="new-password" />
                <PasswordField label={t('profile.confirmPassword')} meta={fields.confirmPassword} autoComplete="new-password" />
                <FormErrors errors={form.errors} />
                <Button type="submit" disabled={navigation.state === 'submitting'}>
                  {t('setPassword.submit')}
                </Button>
              </Flex>
            </Form>
          ) : (
            <Flex direction="column" gap="3">
              <Callout.Root color="red" role="alert">
                <Callout.Text>{t('setPassword.invalid')}</Callout.Text>
              </Callout.Root>
              <Link to="/">{t('notFound.back')}</Link>
            </Flex>
          )}
        </Card>
      </main>
    </Flex>
  );
}
