import { getFormProps, getInputProps, type SubmissionResult } from '@conform-to/react';
import { Card, Flex, Heading, Text } from '@radix-ui/themes';
import { Form, useNavigation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { Field, FormErrors } from '~/components/forms.tsx';
import { SubmitRow } from '~/components/kit/fields.tsx';
import { useZodForm } from '~/components/kit/zod-form.ts';
import { fourEyesSettingSchema } from '~/ledger/schemas.ts';
import { formatEur } from '~/utils/format.ts';

/** /settings (admin): the amount above which a manual adjustment of a client's account needs a second manager. */
export function BookSettingsCard({ amount, lastResult }: { amount: string; lastResult?: SubmissionResult<string[]> | null }) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const busy = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'ledger-four-eyes';
  const [form, fields] = useZodForm(fourEyesSettingSchema, { id: 'ledger-four-eyes', lastResult, defaultValue: { intent: 'ledger-four-eyes', amount } });
  return (
    <Card size="3" data-testid="book-settings">
      <Heading as="h3" size="4" mb="3">
        {t('ledger.settings.title')}
      </Heading>
      <Form method="post" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="ledger-four-eyes" />
        <Flex direction="column" gap="3">
          <FormErrors errors={form.errors} />
          <Field label={t('ledger.settings.fourEyes')} inputProps={{ ...getInputProps(fields.amount, { type: 'text' }), inputMode: 'decimal' }} errors={fields.amount.errors} />
          <Text size="1" color="gray" data-testid="four-eyes-current">
            {t('ledger.settings.current', { amount: formatEur(amount) })}
          </Text>
          <SubmitRow busy={busy} submitLabel={t('ledger.settings.save')} justify="start" testId="four-eyes-save" />
        </Flex>
      </Form>
    </Card>
  );
}
