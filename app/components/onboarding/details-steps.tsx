import { getFormProps, getInputProps, useForm, type SubmissionResult } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4';
import { Button, Flex } from '@radix-ui/themes';
import { Form, useNavigation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';

import { bankingStepSchema, companyStepSchema, COUNTRIES, CREDIT_LIMIT_PLACEHOLDER, DEFAULT_COUNTRY } from '~/onboarding/schemas.ts';
import { SelectField } from '~/components/kit/fields.tsx';
import { useWizardMessage, WizardField, WizardFormErrors } from './fields.tsx';

/**
 * Steps 1 and 2: real form posts validated by the shared step schemas.
 * 'Previous' skips validation (formNoValidate) and still saves what was typed.
 * The forms are always noValidate: without JavaScript the server's messages
 * (the spec's texts) are shown rather than the browser's own bubbles.
 */
interface StepProps {
  values: Record<string, string>;
  lastResult?: SubmissionResult<string[]> | null;
}

function StepButtons({ step }: { step: 1 | 2 }) {
  const { t } = useTranslation();
  const busy = useNavigation().state === 'submitting';
  return (
    <Flex justify="between" mt="4">
      {step > 1 ? (
        <Button type="submit" name="intent" value="previous" variant="soft" formNoValidate disabled={busy}>
          {t('onboarding.actions.previous')}
        </Button>
      ) : (
        <span />
      )}
      <Button type="submit" name="intent" value="next" disabled={busy}>
        {t('onboarding.actions.next')}
      </Button>
    </Flex>
  );
}

export function CompanyStep({ values, lastResult }: StepProps) {
  const { t } = useTranslation();
  const [form, fields] = useForm({
    id: 'onboarding-step-1',
    lastResult,
    defaultValue: values,
    constraint: getZodConstraint(companyStepSchema),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: companyStepSchema }),
  });
  const text = (name: keyof typeof fields, type: 'text' | 'email' | 'tel' = 'text') => ({
    label: t(`onboarding.fields.${name}`),
    inputProps: getInputProps(fields[name], { type }),
    errors: fields[name].errors,
  });
  return (
    <Form method="post" action="/onboarding?step=1" {...getFormProps(form)} noValidate>
      <input type="hidden" name="step" value="1" />
      <Flex direction="column" gap="3">
        <WizardFormErrors errors={form.errors} />
        <WizardField {...text('companyName')} />
        <WizardField {...text('oib')} inputProps={{ ...getInputProps(fields.oib, { type: 'text' }), inputMode: 'numeric', maxLength: 11 }} />
        <WizardField {...text('registrationNumber')} />
        <WizardField {...text('contactPerson')} />
        <WizardField {...text('email', 'email')} />
        <WizardField {...text('phone', 'tel')} />
      </Flex>
      <StepButtons step={1} />
    </Form>
  );
}

export function BankingStep({ values, lastResult }: StepProps) {
  const { t } = useTranslation();
  const message = useWizardMessage();
  const [form, fields] = useForm({
    id: 'onboarding-step-2',
    lastResult,
    defaultValue: { country: DEFAULT_COUNTRY, ...values },
    constraint: getZodConstraint(bankingStepSchema),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: bankingStepSchema }),
  });
  const text = (name: 'address' | 'city' | 'postalCode' | 'iban') => ({
    label: t(`onboarding.fields.${name}`),
    inputProps: getInputProps(fields[name], { type: 'text' }),
    errors: fields[name].errors,
  });
  return (
    <Form method="post" action="/onboarding?step=2" {...getFormProps(form)} noValidate>
      <input type="hidden" name="step" value="2" />
      <Flex direction="column" gap="3">
        <WizardFormErrors errors={form.errors} />
        <WizardField {...text('address')} />
        <WizardField {...text('city')} />
        <WizardField {...text('postalCode')} inputProps={{ ...getInputProps(fields.postalCode, { type: 'text' }), inputMode: 'numeric', maxLength: 5 }} />
        <SelectField label={t('onboarding.fields.country')} meta={fields.country} errors={fields.country.errors?.map(message)}>
          {COUNTRIES.map((country) => (
            <option key={country} value={country}>
              {t(`onboarding.countries.${country}`)}
            </option>
          ))}
        </SelectField>
        <WizardField {...text('iban')} inputProps={{ ...getInputProps(fields.iban, { type: 'text' }), autoComplete: 'off' }} />
        <WizardField
          label={t('onboarding.fields.creditLimit')}
          hint={t('onboarding.fields.creditLimitHint')}
          inputProps={{ ...getInputProps(fields.creditLimit, { type: 'text' }), inputMode: 'decimal', placeholder: String(CREDIT_LIMIT_PLACEHOLDER) }}
          errors={fields.creditLimit.errors}
        />
      </Flex>
      <StepButtons step={2} />
    </Form>
  );
}
