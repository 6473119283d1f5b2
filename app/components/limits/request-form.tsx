import { getInputProps, useForm, type Submission, type SubmissionResult } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import { Flex, Text } from '@radix-ui/themes';
import { useFetcher } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { Field, FormErrors } from '~/components/forms.tsx';
import { creditLimitRequestSchema } from '~/limits/schemas.ts';
import { formatEur } from '~/utils/format.ts';
import { useRefusalTexts } from '~/components/refusal-text.ts';
import { CreateDialog, CreatePanel } from '~/components/kit/create-form.tsx';
import { SelectField, TextAreaField } from '~/components/kit/fields.tsx';

/**
 * The 'new credit limit request' form (docs/screens.md, docs/domain-model.md#validation): client, requested limit,
 * reason and validUntil (one year ahead by default). The dialog posts through
 * a fetcher when JavaScript runs; the same fields render as a page panel at
 * `?new=1`, a plain form post, which is where the button leads without it.
 */
export type RequestFormResult = SubmissionResult<string[]>;
export interface LimitActionData {
  intent: 'create';
  result: RequestFormResult;
  created?: boolean;
}
export interface ClientChoice {
  id: string;
  companyName: string;
  creditLimit: number | null;
}

type FormValues = { clientId?: string; creditLimit?: string; reason?: string; validUntil?: string };

function useRequestForm(id: string, lastResult: RequestFormResult | undefined, defaultValue: FormValues) {
  return useForm<FormValues>({
    id,
    lastResult,
    defaultValue,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: creditLimitRequestSchema }) as Submission<FormValues>,
  });
}

function RequestFields({
  form,
  fields,
  clients,
  today,
}: {
  form: ReturnType<typeof useRequestForm>[0];
  fields: ReturnType<typeof useRequestForm>[1];
  clients: ClientChoice[];
  today: string;
}) {
  const { t } = useTranslation();
  const errorText = useRefusalTexts();
  const selected = clients.find((client) => client.id === fields.clientId.value);
  return (
    <Flex direction="column" gap="3">
      <SelectField
        label={t('limits.fields.clientId')}
        meta={fields.clientId}
        errors={errorText(fields.clientId.errors)}
        selectProps={{ required: true }}
        hint={
          selected ? (
            <Text size="1" color="gray" data-testid="current-limit">
              {t('limits.currentLimit', { limit: selected.creditLimit === null ? t('limits.noLimit') : formatEur(selected.creditLimit, { decimals: 0 }) })}
            </Text>
          ) : null
        }
      >
        <option value="">{t('limits.fields.chooseClient')}</option>
        {clients.map((client) => (
          <option key={client.id} value={client.id}>
            {client.companyName}
          </option>
        ))}
      </SelectField>
      <Field
        label={t('limits.fields.creditLimit')}
        inputProps={{ ...getInputProps(fields.creditLimit, { type: 'number' }), step: '0.01', min: '0.01', inputMode: 'decimal', placeholder: '50000', required: true }}
        errors={errorText(fields.creditLimit.errors)}
      />
      <TextAreaField label={t('limits.fields.reason')} meta={fields.reason} errors={errorText(fields.reason.errors)} textAreaProps={{ maxLength: 5000, required: true }} />
      <Field
        label={t('limits.fields.validUntil')}
        inputProps={{ ...getInputProps(fields.validUntil, { type: 'date' }), min: today }}
        errors={errorText(fields.validUntil.errors)}
      />
      <FormErrors errors={errorText(form.errors)} />
    </Flex>
  );
}

/** The JavaScript dialog: toasts on failure, closes and resets on success (the success toast comes from the server). */
export function RequestLimitDialog({
  open,
  onOpenChange,
  clients,
  defaultValidUntil,
  today,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  clients: ClientChoice[];
  defaultValidUntil: string;
  today: string;
}) {
  const { t } = useTranslation();
  const fetcher = useFetcher<LimitActionData>({ key: 'request-limit' });
  const [form, fields] = useRequestForm('new-limit-request', fetcher.data?.result, { validUntil: defaultValidUntil });
  return (
    <CreateDialog
      open={open}
      onOpenChange={onOpenChange}
      fetcher={fetcher}
      form={form}
      title={t('limits.dialogTitle')}
      description={t('limits.dialogDescription')}
      maxWidth="560px"
      failureToast={{ title: 'limits.toast.createFailed', variant: 'destructive' }}
      labels={{ cancel: t('limits.cancel'), save: t('limits.save'), saving: t('limits.saving') }}
    >
      <RequestFields form={form} fields={fields} clients={clients} today={today} />
    </CreateDialog>
  );
}

/** The same form as a page panel (`?new=1`, optionally `&client=<id>` preselected): works without JavaScript. */
export function RequestLimitPanel({
  clients,
  defaultValidUntil,
  today,
  clientId,
  lastResult,
  cancelTo,
}: {
  clients: ClientChoice[];
  defaultValidUntil: string;
  today: string;
  clientId: string | null;
  lastResult?: RequestFormResult;
  cancelTo: string;
}) {
  const { t } = useTranslation();
  const [form, fields] = useRequestForm('new-limit-request-panel', lastResult, { validUntil: defaultValidUntil, clientId: clientId ?? undefined });
  return (
    <CreatePanel
      form={form}
      testId="create-panel"
      title={t('limits.dialogTitle')}
      description={t('limits.dialogDescription')}
      cancelTo={cancelTo}
      labels={{ cancel: t('limits.cancel'), save: t('limits.save'), saving: t('limits.saving') }}
    >
      <RequestFields form={form} fields={fields} clients={clients} today={today} />
    </CreatePanel>
  );
}
