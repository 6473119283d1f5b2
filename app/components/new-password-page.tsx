import { getFormProps, type SubmissionResult } from '@conform-to/react';
import { Button, Card, Flex, Heading, Text } from '@radix-ui/themes';
import { Form, useNavigation } from '@remix-run/react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { setPasswordSchema } from '~/auth/schemas.ts';
import { FormErrors, PasswordField } from '~/components/forms.tsx';
import { useZodForm } from '~/components/kit/zod-form.ts';

/**
 * The page behind an emailed one-time link where someone chooses a password: a new user's
 * (app/routes/set-password.$token.tsx) and a forgotten one's (app/routes/reset-password.$token.tsx).
 * A link that is no good (`email` null) shows `invalid` instead of the form.
 */
export function NewPasswordPage({
  formId,
  email,
  lastResult,
  texts,
  invalid,
}: {
  formId: string;
  email: string | null;
  lastResult: SubmissionResult<string[]> | null | undefined;
  /** i18n keys; `description` gets {email}. */
  texts: { title: string; description: string; submit: string };
  invalid: ReactNode;
}) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const [form, fields] = useZodForm(setPasswordSchema, { id: formId, lastResult });
  return (
    <main className="centered-page">
      <Card size="4" style={{ width: 420, maxWidth: '100%', textAlign: 'left' }}>
        <Heading as="h1" size="5" mb="2">
          {t(texts.title)}
        </Heading>
        {email !== null ? (
          <Form method="post" {...getFormProps(form)}>
            <Flex direction="column" gap="3">
              <Text color="gray">{t(texts.description, { email })}</Text>
              <PasswordField label={t('profile.newPassword')} meta={fields.newPassword} autoComplete="new-password" />
              <PasswordField label={t('profile.confirmPassword')} meta={fields.confirmPassword} autoComplete="new-password" />
              <FormErrors errors={form.errors} />
              <Button type="submit" disabled={navigation.state === 'submitting'}>
                {t(texts.submit)}
              </Button>
            </Flex>
          </Form>
        ) : (
          <Flex direction="column" gap="3">
            {invalid}
          </Flex>
        )}
      </Card>
    </main>
  );
}
