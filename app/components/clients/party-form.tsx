import { getFormProps, getInputProps, useForm, type FieldMetadata, type Submission, type SubmissionResult } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4';
import { Callout, Flex, Grid } from '@radix-ui/themes';
import { Form, useFetcher, useNavigation } from '@remix-run/react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { DEFAULT_COUNTRY, type PartyField, type PartySchema } from '~/clients/schemas.ts';
import { Field } from '~/components/forms.tsx';
import { useRefusalTexts } from '~/components/refusal-text.ts';
import { CreateDialog, CreatePanel } from '~/components/kit/create-form.tsx';
import { SelectField, SubmitRow } from '~/components/kit/fields.tsx';
import { useToast } from '~/components/toaster.tsx';

/**
 * The creation dialog (docs/screens.md, docs/domain-model.md#validation) and the detail pages' edit form. One zod
 * schema validates in the browser (conform) and again on the server. The
 * dialog posts through a fetcher (JavaScript); the same form renders as a
 * panel for `?new=1`, which is where the 'Dodaj klijenta' link leads without
 * JavaScript.
 */
export type PartyArea = 'clients' | 'customers';
export type PartyFormResult = SubmissionResult<string[]>;
export interface PartyActionData {
  intent: 'create' | 'update';
  result: PartyFormResult;
  created?: boolean;
}

type FormValues = Partial<Record<PartyField | 'status', string>>;
const INPUT_TYPES: Partial<Record<PartyField, 'email' | 'tel'>> = { email: 'email', phone: 'tel' };

function PartyFields({ fields, names }: { fields: Record<string, FieldMetadata<string | undefined>>; names: readonly PartyField[] }) {
  const { t } = useTranslation();
  const errorText = useRefusalTexts();
  return (
    <Grid columns={{ initial: '1', sm: '2' }} gap="3">
      {names.map((name) => (
        <Field
          key={name}
          label={t(`clients.fields.${name}`)}
          inputProps={{
            ...getInputProps(fields[name], { type: INPUT_TYPES[name] ?? 'text' }),
            ...(name === 'oib' || name === 'postalCode' ? { inputMode: 'numeric' as const } : {}),
          }}
          errors={errorText(fields[name].errors)}
        />
      ))}
    </Grid>
  );
}

function FormErrors({ errors }: { errors?: string[] }) {
  const errorText = useRefusalTexts();
  if (!errors?.length) return null;
  return (
    <Callout.Root color="red" role="alert">
      <Callout.Text>{errorText(errors)?.join(' ')}</Callout.Text>
    </Callout.Root>
  );
}

function usePartyForm(id: string, schema: PartySchema, lastResult: PartyFormResult | undefined, defaultValue?: FormValues) {
  return useForm<FormValues>({
    id,
    lastResult,
    defaultValue: defaultValue ?? { country: DEFAULT_COUNTRY },
    constraint: getZodConstraint(schema),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema }) as Submission<FormValues>,
  });
}

/** The JavaScript dialog: toasts on failure, closes and resets on success (the success toast comes from the server). */
export function CreatePartyDialog({
  area,
  schema,
  names,
  open,
  onOpenChange,
}: {
  area: PartyArea;
  schema: PartySchema;
  names: readonly PartyField[];
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const { t } = useTranslation();
  const fetcher = useFetcher<PartyActionData>({ key: `create-${area}` });
  const [form, fields] = usePartyForm(`new-${area}`, schema, fetcher.data?.result);
  return (
    <CreateDialog
      open={open}
      onOpenChange={onOpenChange}
      fetcher={fetcher}
      form={form}
      title={t(`${area}.dialogTitle`)}
      description={t('clients.dialogDescription')}
      maxWidth="640px"
      failureToast={{ title: 'clients.toast.errorTitle', description: `${area}.toast.createFailed`, variant: 'destructive' }}
      labels={{ cancel: t('clients.cancel'), save: t('clients.save'), saving: t('clients.saving') }}
    >
      <PartyFields fields={fields} names={names} />
      <FormErrors errors={form.errors} />
    </CreateDialog>
  );
}

/** The same form as a page panel (`?new=1`): a plain form post, so it works without JavaScript. */
export function CreatePartyPanel({
  area,
  schema,
  names,
  lastResult,
  cancelTo,
}: {
  area: PartyArea;
  schema: PartySchema;
  names: readonly PartyField[];
  lastResult?: PartyFormResult;
  cancelTo: string;
}) {
  const { t } = useTranslation();
  const [form, fields] = usePartyForm(`new-${area}-panel`, schema, lastResult);
  return (
    <CreatePanel
      form={form}
      testId="create-panel"
      title={t(`${area}.dialogTitle`)}
      description={t('clients.dialogDescription')}
      cancelTo={cancelTo}
      labels={{ cancel: t('clients.cancel'), save: t('clients.save'), saving: t('clients.saving') }}
    >
      <PartyFields fields={fields} names={names} />
      <FormErrors errors={form.errors} />
    </CreatePanel>
  );
}

/** The detail page's edit form (every field posted; a blank field is cleared). */
export function EditPartyForm({
  area,
  schema,
  names,
  defaultValue,
  lastResult,
  withStatus,
}: {
  area: PartyArea;
  schema: PartySchema;
  names: readonly PartyField[];
  defaultValue: FormValues;
  lastResult?: PartyFormResult;
  withStatus?: boolean;
}) {
  const { t } = useTranslation();
  const toast = useToast();
  const navigation = useNavigation();
  const saving = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'update';
  const [form, fields] = usePartyForm(`edit-${area}`, schema, lastResult, defaultValue);
  useEffect(() => {
    if (lastResult?.status === 'error') toast({ title: 'clients.toast.errorTitle', description: `${area}.detail.updateFailed`, variant: 'destructive' });
  }, [lastResult, toast, area]);
  return (
    <Form method="post" {...getFormProps(form)}>
      <input type="hidden" name="intent" value="update" />
      <Flex direction="column" gap="3">
        <PartyFields fields={fields} names={names} />
        {withStatus ? (
          <SelectField label={t('clients.fields.status')} meta={fields.status}>
            {(['active', 'pending', 'inactive'] as const).map((status) => (
              <option key={status} value={status}>
                {t(`clients.status.${status}`)}
              </option>
            ))}
          </SelectField>
        ) : null}
        <FormErrors errors={form.errors} />
        <SubmitRow submitLabel={t('clients.save')} busyLabel={t('clients.saving')} busy={saving} />
      </Flex>
    </Form>
  );
}
