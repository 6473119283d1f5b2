import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm, type Submission, type SubmissionResult } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import { Button, Card, Flex, Heading, Text, TextArea } from '@radix-ui/themes';
import { Form, Link, useFetcher, useNavigation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { ErrorList, Field, FormErrors } from '~/components/forms.tsx';
import { creditLimitRequestSchema } from '~/limits/schemas.ts';
import { formatEur } from '~/utils/format.ts';
import { useLimitErrorText } from './display.tsx';
import { CreateDialog } from '~/components/kit/create-form.tsx';

/**
 * The 'new credit limit request' form of spec §2/§5: client, requested limit,
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
  const errorText = useLimitErrorText();
  const selected = clients.find((client) => client.id === fields.clientId.value);
  const clientErrorId = fields.clientId.errors?.length ? `${fields.clientId.id}-error` : undefined;
  const reasonErrorId = fields.reason.errors?.length ? `${fields.reason.id}-error` : undefined;
  return (
    <Flex direction="column" gap="3">
      <Flex direction="column" gap="1">
        <Text as="label" htmlFor={fields.clientId.id} size="2" weight="medium">
          {t('limits.fields.clientId')}
        </Text>
        <select {...getSelectProps(fields.clientId)} className="native-select" aria-describedby={clientErrorId} required>
          <option value="">{t('limits.fields.chooseClient')}</option>
          {clients.map((client) => (
            <option key={client.id} value={client.id}>
              {client.companyName}
            </option>
          ))}
        </select>
        {selected ? (
          <Text size="1" color="gray" data-testid="current-limit">
            {t('limits.currentLimit', { limit: selected.creditLimit === null ? t('limits.noLimit') : formatEur(selected.creditLimit, { decimals: 0 }) })}
          </Text>
        ) : null}
        <ErrorList id={clientErrorId} errors={errorText(fields.clientId.errors)} />
      </Flex>
      <Field
        label={t('limits.fields.creditLimit')}
        inputProps={{ ...getInputProps(fields.creditLimit, { type: 'number' }), step: '0.01', min: '0.01', inputMode: 'decimal', placeholder: '50000', required: true }}
        errors={errorText(fields.creditLimit.errors)}
      />
      <Flex direction="column" gap="1">
        <Text as="label" htmlFor={fields.reason.id} size="2" weight="medium">
          {t('limits.fields.reason')}
        </Text>
        <TextArea {...getTextareaProps(fields.reason)} rows={3} maxLength={5000} required aria-describedby={reasonErrorId} />
        <ErrorList id={reasonErrorId} errors={errorText(fields.reason.errors)} />
      </Flex>
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
  const navigation = useNavigation();
  const saving = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'create';
  const [form, fields] = useRequestForm('new-limit-request-panel', lastResult, { validUntil: defaultValidUntil, clientId: clientId ?? undefined });
  return (
    <Card size="3" data-testid="create-panel">
      <Form method="post" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="create" />
        <Flex direction="column" gap="3">
          <Heading as="h2" size="4">
            {t('limits.dialogTitle')}
          </Heading>
          <Text size="2" color="gray">
            {t('limits.dialogDescription')}
          </Text>
          <RequestFields form={form} fields={fields} clients={clients} today={today} />
          <Flex gap="3" justify="end">
            <Button asChild variant="soft" color="gray">
              <Link to={cancelTo}>{t('limits.cancel')}</Link>
            </Button>
            <Button type="submit" disabled={saving}>
              {saving ? t('limits.saving') : t('limits.save')}
            </Button>
          </Flex>
        </Flex>
      </Form>
    </Card>
  );
}
