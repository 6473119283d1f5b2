import { getInputProps, type SubmissionResult } from '@conform-to/react';
import { Flex } from '@radix-ui/themes';
import { useFetcher } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { Field, FormErrors } from '~/components/forms.tsx';
import { Options, SelectField, TextAreaField } from '~/components/kit/fields.tsx';
import { PAYMENT_METHODS, paymentCreateSchema } from '~/payments/schemas.ts';
import { formatEur } from '~/utils/format.ts';
import { useRefusalTexts } from '~/components/refusal-text.ts';
import { CreateDialog, CreatePanel, type CreateTexts } from '~/components/kit/create-form.tsx';
import { useZodForm } from '~/components/kit/zod-form.ts';

/**
 * The record-payment dialog (docs/screens.md, docs/domain-model.md#validation): payable invoice, amount to the
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

function useRecordForm(id: string, lastResult: RecordResult | undefined) {
  return useZodForm(paymentCreateSchema, { id, lastResult, defaultValue: { paymentMethod: 'bank_transfer' } });
}

function useRecordTexts(): CreateTexts {
  const { t } = useTranslation();
  return {
    title: t('payments.dialogTitle'),
    description: t('payments.dialogDescription'),
    labels: { cancel: t('payments.cancel'), save: t('payments.save'), saving: t('payments.saving') },
  };
}

function Fields({ form, fields, invoices }: { form: ReturnType<typeof useRecordForm>[0]; fields: ReturnType<typeof useRecordForm>[1]; invoices: PayableOption[] }) {
  const { t } = useTranslation();
  const errorText = useRefusalTexts();
  return (
    <Flex direction="column" gap="3">
      <SelectField label={t('payments.fields.invoice')} meta={fields.invoiceId} errors={errorText(fields.invoiceId.errors)}>
        <option value="">{t('payments.fields.chooseInvoice')}</option>
        <Options
          items={invoices}
          value={(invoice) => invoice.id}
          label={(invoice) => t('payments.fields.invoiceOption', { number: invoice.invoiceNumber, customer: invoice.customerName, open: formatEur(invoice.openAmount) })}
        />
      </SelectField>
      <Field
        label={t('payments.fields.amount')}
        inputProps={{ ...getInputProps(fields.amount, { type: 'text' }), inputMode: 'decimal', placeholder: '0.00' }}
        errors={errorText(fields.amount.errors)}
      />
      <SelectField label={t('payments.fields.paymentMethod')} meta={fields.paymentMethod} errors={errorText(fields.paymentMethod.errors)}>
        <Options items={PAYMENT_METHODS} label={(method) => t(`payments.method.${method}`)} />
      </SelectField>
      <Field label={t('payments.fields.reference')} inputProps={getInputProps(fields.reference, { type: 'text' })} errors={errorText(fields.reference.errors)} />
      <TextAreaField label={t('payments.fields.notes')} meta={fields.notes} errors={errorText(fields.notes.errors)} />
      <FormErrors errors={form.errors} />
    </Flex>
  );
}

export function RecordPaymentDialog({ open, onOpenChange, invoices }: { open: boolean; onOpenChange: (open: boolean) => void; invoices: PayableOption[] }) {
  const texts = useRecordTexts();
  const fetcher = useFetcher<RecordActionData>({ key: 'record-payment' });
  const [form, fields] = useRecordForm('record-payment', fetcher.data?.result);
  return (
    <CreateDialog
      {...texts}
      open={open}
      onOpenChange={onOpenChange}
      fetcher={fetcher}
      form={form}
      maxWidth="560px"
      failureToast={{ title: 'payments.toast.errorTitle', description: 'payments.toast.recordFailed', variant: 'destructive' }}
    >
      <Fields form={form} fields={fields} invoices={invoices} />
    </CreateDialog>
  );
}

export function RecordPaymentPanel({ invoices, lastResult, cancelTo }: { invoices: PayableOption[]; lastResult?: RecordResult; cancelTo: string }) {
  const texts = useRecordTexts();
  const [form, fields] = useRecordForm('record-payment-panel', lastResult);
  return (
    <CreatePanel {...texts} form={form} testId="record-panel" cancelTo={cancelTo}>
      <Fields form={form} fields={fields} invoices={invoices} />
    </CreatePanel>
  );
}
