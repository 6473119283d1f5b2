import { getFormProps, getInputProps, type FormMetadata, type SubmissionResult } from '@conform-to/react';
import { Button, Flex } from '@radix-ui/themes';
import { Form, useNavigation } from '@remix-run/react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { bankingStepSchema, companyStepSchema, COUNTRIES, CREDIT_LIMIT_PLACEHOLDER, DEFAULT_COUNTRY } from '~/onboarding/schemas.ts';
import { Options, SelectField } from '~/components/kit/fields.tsx';
import { useWizardMessage, WizardField, WizardFormErrors } from './fields.tsx';
import { useZodForm } from '~/components/kit/zod-form.ts';

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

/** A step's form: its number for the action, the form-level errors above the fields, Previous (from step 2) and Next below. */
function StepForm<Schema extends Record<string, unknown>>({ step, form, children }: { step: 1 | 2; form: FormMetadata<Schema>; children: ReactNode }) {
  const { t } = useTranslation();
  const busy = useNavigation().state === 'submitting';
  return (
    <Form method="post" action={`/onboarding?step=${step}`} {...getFormProps(form)} noValidate>
      <input type="hidden" name="step" value={step} />
      <Flex direction="column" gap="3">
        <WizardFormErrors errors={form.errors} />
        {children}
      </Flex>
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
    </Form>
  );
}

export function CompanyStep({ values, lastResult }: StepProps) {
  const { t } = useTranslation();
  const [form, fields] = useZodForm(companyStepSchema, { id: 'onboarding-step-1', lastResult, defaultValue: values });
  const text = (name: keyof typeof fields, type: 'text' | 'email' | 'tel' = 'text') => ({
    label: t(`onboarding.fields.${name}`),
    inputProps: getInputProps(fields[name], { type }),
    errors: fields[name].errors,
  });
  return (
    <StepForm step={1} form={form}>
      <WizardField {...text('companyName')} />
      <WizardField {...text('oib')} inputProps={{ ...getInputProps(fields.oib, { type: 'text' }), inputMode: 'numeric', maxLength: 11 }} />
      <WizardField {...text('registrationNumber')} />
      <WizardField {...text('contactPerson')} />
      <WizardField {...text('email', 'email')} />
      <WizardField {...text('phone', 'tel')} />
    </StepForm>
  );
}

export function BankingStep({ values, lastResult }: StepProps) {
  const { t } = useTranslation();
  const message = useWizardMessage();
  const [form, fields] = useZodForm(bankingStepSchema, { id: 'onboarding-step-2', lastResult, defaultValue: { country: DEFAULT_COUNTRY, ...values } });
  const text = (name: 'address' | 'city' | 'postalCode' | 'iban') => ({
    label: t(`onboarding.fields.${name}`),
    inputProps: getInputProps(fields[name], { type: 'text' }),
    errors: fields[name].errors,
  });
  return (
    <StepForm step={2} form={form}>
      <WizardField {...text('address')} />
      <WizardField {...text('city')} />
      <WizardField {...text('postalCode')} inputProps={{ ...getInputProps(fields.postalCode, { type: 'text' }), inputMode: 'numeric', maxLength: 5 }} />
      <SelectField label={t('onboarding.fields.country')} meta={fields.country} errors={fields.country.errors?.map(message)}>
        <Options items={COUNTRIES} label={(country) => t(`onboarding.countries.${country}`)} />
      </SelectField>
      <WizardField {...text('iban')} inputProps={{ ...getInputProps(fields.iban, { type: 'text' }), autoComplete: 'off' }} />
      <WizardField
        label={t('onboarding.fields.creditLimit')}
        hint={t('onboarding.fields.creditLimitHint')}
        inputProps={{ ...getInputProps(fields.creditLimit, { type: 'text' }), inputMode: 'decimal', placeholder: String(CREDIT_LIMIT_PLACEHOLDER) }}
        errors={fields.creditLimit.errors}
      />
    </StepForm>
  );
}
