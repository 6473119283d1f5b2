import { getInputProps, getSelectProps, getTextareaProps, useForm, type Submission, type SubmissionResult } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4';
import { Callout, Flex, Text } from '@radix-ui/themes';
import { useFetcher } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { Field } from '~/components/forms.tsx';
import { PAYMENT_METHODS, paymentCreateSchema } from '~/payments/schemas.ts';
import { formatEur } from '~/utils/format.ts';
import { usePaymentErrorText } from './display.tsx';
import { CreateDialog, CreatePanel } from '~/components/kit/create-form.tsx';

/**
 * The record-payment dialog (spec §2, §5): payable invoice, amount to the
 * cent, method, reference, notes. One zod schema validates in the browser
 * and on the server. With JavaScript it is a dialog posting through a
 * fetcher; `?new=1` renders the same form as a panel for a plain post.
 */
export interface PayableOption {
  id: string;
  invoiceNumber: string;
  customerName: string;
  clientName: string;
  openAmount: number;
}
export type RecordResult = SubmissionResult<string[]>;
export interface RecordActionData {
  intent: 'create';
  result: RecordResult;
  created?: boolean;
}

type Values = { invoiceId?: string; amount?: string; paymentMethod?: string; reference?: string; notes?: string };

function useRecordForm(id: string, lastResult: RecordResult | undefined) {
  return useForm<Values>({
    id,
    lastResult,
    defaultValue: { paymentMethod: 'bank_transfer' },
    constraint: getZodConstraint(paymentCreateSchema),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: paymentCreateSchema }) as Submission<Values>,
  });
}

function Fields({ form, fields, invoices }: { form: ReturnType<typeof useRecordForm>[0]; fields: ReturnType<typeof useRecordForm>[1]; invoices: PayableOption[] }) {
  const { t } = useTranslation();
  const errorText = usePaymentErrorText();
  return (
    <Flex direction="column" gap="3">
      <Flex direction="column" gap="1">
        <Text as="label" htmlFor={fields.invoiceId.id} size="2" weight="medium">
          {t('payments.fields.invoice')}
        </Text>
        <select {...getSelectProps(fields.invoiceId)} className="native-select" aria-invalid={fields.invoiceId.errors ? true : undefined}>
          <option value="">{t('payments.fields.chooseInvoice')}</option>
          {invoices.map((invoice) => (
            <option key={invoice.id} value={invoice.id}>
              {t('payments.fields.invoiceOption', { number: invoice.invoiceNumber, customer: invoice.customerName, open: formatEur(invoice.openAmount) })}
            </option>
          ))}
        </select>
        <ErrorText errors={errorText(fields.invoiceId.errors)} />
      </Flex>
      <Field
        label={t('payments.fields.amount')}
        inputProps={{ ...getInputProps(fields.amount, { type: 'text' }), inputMode: 'decimal', placeholder: '0.00' }}
        errors={errorText(fields.amount.errors)}
      />
      <Flex direction="column" gap="1">
        <Text as="label" htmlFor={fields.paymentMethod.id} size="2" weight="medium">
          {t('payments.fields.paymentMethod')}
        </Text>
        <select {...getSelectProps(fields.paymentMethod)} className="native-select">
          {PAYMENT_METHODS.map((method) => (
            <option key={method} value={method}>
              {t(`payments.method.${method}`)}
            </option>
          ))}
        </select>
        <ErrorText errors={errorText(fields.paymentMethod.errors)} />
      </Flex>
      <Field label={t('payments.fields.reference')} inputProps={getInputProps(fields.reference, { type: 'text' })} errors={errorText(fields.reference.errors)} />
      <Flex direction="column" gap="1">
        <Text as="label" htmlFor={fields.notes.id} size="2" weight="medium">
          {t('payments.fields.notes')}
        </Text>
        <textarea {...getTextareaProps(fields.notes)} className="native-select" rows={3} />
        <ErrorText errors={errorText(fields.notes.errors)} />
      </Flex>
      {form.errors?.length ? (
        <Callout.Root color="red" role="alert">
          <Callout.Text>{errorText(form.errors)?.join(' ')}</Callout.Text>
        </Callout.Root>
      ) : null}
    </Flex>
  );
}

function ErrorText({ errors }: { errors?: string[] }) {
  if (!errors?.length) return null;
  return (
    <Text size="1" color="red" role="alert">
      {errors.join(' ')}
    </Text>
  );
}

export function RecordPaymentDialog({ open, onOpenChange, invoices }: { open: boolean; onOpenChange: (open: boolean) => void; invoices: PayableOption[] }) {
  const { t } = useTranslation();
  const fetcher = useFetcher<RecordActionData>({ key: 'record-payment' });
  const [form, fields] = useRecordForm('record-payment', fetcher.data?.result);
  return (
    <CreateDialog
      open={open}
      onOpenChange={onOpenChange}
      fetcher={fetcher}
      form={form}
      title={t('payments.dialogTitle')}
      description={t('payments.dialogDescription')}
      maxWidth="560px"
      failureToast={{ title: 'payments.toast.errorTitle', description: 'payments.toast.recordFailed', variant: 'destructive' }}
      labels={{ cancel: t('payments.cancel'), save: t('payments.save'), saving: t('payments.saving') }}
    >
      <Fields form={form} fields={fields} invoices={invoices} />
    </CreateDialog>
  );
}

export function RecordPaymentPanel({ invoices, lastResult, cancelTo }: { invoices: PayableOption[]; lastResult?: RecordResult; cancelTo: string }) {
  const { t } = useTranslation();
  const [form, fields] = useRecordForm('record-payment-panel', lastResult);
  return (
    <CreatePanel
      form={form}
      testId="record-panel"
      title={t('payments.dialogTitle')}
      cancelTo={cancelTo}
      labels={{ cancel: t('payments.cancel'), save: t('payments.save'), saving: t('payments.saving') }}
    >
      <Fields form={form} fields={fields} invoices={invoices} />
    </CreatePanel>
  );
}
