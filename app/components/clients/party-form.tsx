import { getFormProps, getInputProps, type SubmissionResult } from '@conform-to/react';
import { Flex, Grid } from '@radix-ui/themes';
import { Form, useNavigation } from '@remix-run/react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { DEFAULT_COUNTRY, type PartyField, type PartySchema } from '~/clients/schemas.ts';
import { Field } from '~/components/forms.tsx';
import { useRefusalTexts } from '~/components/refusal-text.ts';
import { CreateFormDialog, CreateFormPanel, type CreateFormSpec } from '~/components/kit/create-form.tsx';
import { Options, SelectField, SubmitRow, type AnyFieldMetadata } from '~/components/kit/fields.tsx';
import { useToast } from '~/components/toaster.tsx';
import { useZodForm } from '~/components/kit/zod-form.ts';
import { AlertCallout } from '~/components/kit/callouts.tsx';

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

function PartyFields({ fields, names }: { fields: Record<PartyField, AnyFieldMetadata>; names: readonly PartyField[] }) {
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
  return <AlertCallout>{errorText(errors)?.join(' ')}</AlertCallout>;
}

/** The create form of `area`: the same spec for its dialog and its `?new=1` panel. */
function partyCreateForm(area: PartyArea, schema: PartySchema): CreateFormSpec<PartySchema> {
  return {
    name: area,
    schema,
    defaultValue: { country: DEFAULT_COUNTRY },
    texts: { title: `${area}.dialogTitle`, description: 'clients.dialogDescription', cancel: 'clients.cancel', save: 'clients.save', saving: 'clients.saving' },
    failureToast: { title: 'clients.toast.errorTitle', description: `${area}.toast.createFailed`, variant: 'destructive' },
    maxWidth: '640px',
    testId: 'create-panel',
  };
}

/** What both frames of the create form are told: the area, its schema and the fields it asks for. */
interface CreatePartyProps {
  area: PartyArea;
  schema: PartySchema;
  names: readonly PartyField[];
}

/** The create form's body: the area's fields and the refusals of the whole form. */
function CreatePartyFields({ fields, formErrors, names }: { fields: Record<PartyField, AnyFieldMetadata>; formErrors?: string[]; names: readonly PartyField[] }) {
  return (
    <>
      <PartyFields fields={fields} names={names} />
      <FormErrors errors={formErrors} />
    </>
  );
}

/** The JavaScript dialog: toasts on failure, closes and resets on success (the success toast comes from the server). */
export function CreatePartyDialog({ area, schema, names, open, onOpenChange }: CreatePartyProps & { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <CreateFormDialog spec={partyCreateForm(area, schema)} open={open} onOpenChange={onOpenChange}>
      {(fields, form) => <CreatePartyFields fields={fields} formErrors={form.errors} names={names} />}
    </CreateFormDialog>
  );
}

/** The same form as a page panel (`?new=1`): a plain form post, so it works without JavaScript. */
export function CreatePartyPanel({ area, schema, names, lastResult, cancelTo }: CreatePartyProps & { lastResult?: PartyFormResult; cancelTo: string }) {
  return (
    <CreateFormPanel spec={partyCreateForm(area, schema)} lastResult={lastResult} cancelTo={cancelTo}>
      {(fields, form) => <CreatePartyFields fields={fields} formErrors={form.errors} names={names} />}
    </CreateFormPanel>
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
  const [form, fields] = useZodForm(schema, { id: `edit-${area}`, lastResult, defaultValue });
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
            <Options items={['active', 'pending', 'inactive'] as const} label={(status) => t(`clients.status.${status}`)} />
          </SelectField>
        ) : null}
        <FormErrors errors={form.errors} />
        <SubmitRow submitLabel={t('clients.save')} busyLabel={t('clients.saving')} busy={saving} />
      </Flex>
    </Form>
  );
}
