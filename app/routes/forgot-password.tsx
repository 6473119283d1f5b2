import { getFormProps, getInputProps } from '@conform-to/react';
import { pageTitle } from '~/utils/meta.ts';
import { parseWithZod } from '@conform-to/zod/v4';
import { Button, Callout, Card, Flex, Heading, Link as RadixLink, Text } from '@radix-ui/themes';
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { clientIp } from '~/auth/login.server.ts';
import { requestPasswordReset } from '~/auth/password-reset.server.ts';
import { forgotPasswordSchema } from '~/auth/schemas.ts';
import { Field, FormErrors } from '~/components/forms.tsx';
import { LanguageSwitcher } from '~/components/language-switcher.tsx';
import { readApiError } from '~/utils/api.server.ts';
import { readFormData } from '~/utils/form-data.server.ts';
import { useZodForm } from '~/components/kit/zod-form.ts';

export const meta: MetaFunction = ({ matches }) => pageTitle(matches, 'recovery.forgot.title');

/** `/forgot-password` (public): asks for a reset link; `?sent=1` is the answer, the same for every address. */
export function loader({ request }: LoaderFunctionArgs) {
  return json({ sent: new URL(request.url).searchParams.get('sent') === '1' });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const submission = parseWithZod(await readFormData(request), { schema: forgotPasswordSchema });
  if (submission.status !== 'success') return json(submission.reply(), { status: 400 });
  try {
    await requestPasswordReset(submission.value, { ip: clientIp(context) });
  } catch (error) {
    const problem = await readApiError(error);
    if (!problem) throw error;
    const result = problem.errors ? submission.reply({ fieldErrors: problem.errors }) : submission.reply({ formErrors: [problem.message] });
    return json(result, { status: problem.status, headers: problem.status === 429 ? retryAfterOf(error) : undefined });
  }
  // Post/redirect/get: a reload does not ask again.
  return redirect('/forgot-password?sent=1');
}

function retryAfterOf(error: unknown): HeadersInit | undefined {
  const value = error instanceof Response ? error.headers.get('Retry-After') : null;
  return value ? { 'Retry-After': value } : undefined;
}

export default function ForgotPasswordPage() {
  const { sent } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const { t } = useTranslation();
  const navigation = useNavigation();
  const [form, fields] = useZodForm(forgotPasswordSchema, { id: 'forgot-password', lastResult });
  const sending = navigation.state === 'submitting';
  return (
    <main className="centered-page">
      <Card size="4" style={{ width: 420, maxWidth: '100%', textAlign: 'left' }}>
        <Flex justify="end" mb="3">
          <LanguageSwitcher />
        </Flex>
        <Heading as="h1" size="5" mb="2">
          {sent ? t('recovery.forgot.sentTitle') : t('recovery.forgot.title')}
        </Heading>
        {sent ? (
          <Callout.Root color="green" role="status" data-testid="reset-requested">
            <Callout.Text>{t('recovery.forgot.sent')}</Callout.Text>
          </Callout.Root>
        ) : (
          <Form method="post" {...getFormProps(form)}>
            <Flex direction="column" gap="3">
              <Text color="gray">{t('recovery.forgot.description')}</Text>
              <Field
                label={t('recovery.forgot.email')}
                inputProps={{ ...getInputProps(fields.email, { type: 'email' }), autoComplete: 'username', autoFocus: true }}
                errors={fields.email.errors}
              />
              <FormErrors errors={form.errors} />
              <Button type="submit" disabled={sending}>
                {sending ? t('recovery.forgot.sending') : t('recovery.forgot.submit')}
              </Button>
            </Flex>
          </Form>
        )}
        <Text as="p" size="2" mt="4">
          <RadixLink asChild>
            <Link to="/">{t('recovery.forgot.back')}</Link>
          </RadixLink>
        </Text>
      </Card>
    </main>
  );
}
