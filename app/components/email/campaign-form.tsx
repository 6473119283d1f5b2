import { getInputProps } from '@conform-to/react';
import { Flex } from '@radix-ui/themes';
import { useTranslation } from 'react-i18next';
import { Field, FormErrors } from '~/components/forms.tsx';
import { Options, SelectField } from '~/components/kit/fields.tsx';
import { CAMPAIGN_RECIPIENTS, campaignCreateSchema } from '~/email/schemas.ts';
import { useRefusalTexts } from '~/components/refusal-text.ts';
import type { EmailFormResult } from './template-form.tsx';
import { CreateFormDialog, CreateFormPanel, type CreateFormSpec } from '~/components/kit/create-form.tsx';
import type { ZodFormFields } from '~/components/kit/zod-form.ts';

/** The campaign dialog of docs/screens.md (only active templates; recipients default active_clients; optional schedule) and its ?new=campaign panel. */
export interface CampaignChoices {
  templates: { id: string; name: string }[];
  clients: { id: string; companyName: string }[];
}

const CAMPAIGN_FORM: CreateFormSpec<typeof campaignCreateSchema> = {
  name: 'campaign',
  schema: campaignCreateSchema,
  defaultValue: { recipients: 'active_clients' },
  intent: 'createCampaign',
  texts: {
    title: 'email.campaignForm.title',
    description: 'email.campaignForm.description',
    cancel: 'email.campaignForm.cancel',
    save: 'email.campaignForm.submit',
    saving: 'email.campaignForm.submitting',
  },
  failureToast: { title: 'email.toast.errorTitle', description: 'email.toast.createCampaignFailed', variant: 'destructive' },
  maxWidth: '600px',
  testId: 'campaign-panel',
};

function CampaignFields({ fields, formErrors, choices }: { fields: ZodFormFields<typeof campaignCreateSchema>; formErrors?: string[]; choices: CampaignChoices }) {
  const { t } = useTranslation();
  const errorText = useRefusalTexts();
  const recipients = fields.recipients.value ?? 'active_clients';
  return (
    <Flex direction="column" gap="3">
      <Field label={t('email.campaignForm.name')} inputProps={getInputProps(fields.name, { type: 'text' })} errors={errorText(fields.name.errors)} />
      <SelectField
        label={t('email.campaignForm.template')}
        meta={fields.templateId}
        errors={errorText(fields.templateId.errors)}
        selectProps={{ 'data-testid': 'campaign-template' }}
      >
        <option value="">{choices.templates.length ? t('email.campaignForm.templatePlaceholder') : t('email.campaignForm.noActiveTemplates')}</option>
        <Options items={choices.templates} value={(template) => template.id} label={(template) => template.name} />
      </SelectField>
      <SelectField label={t('email.campaignForm.recipients')} meta={fields.recipients} errors={errorText(fields.recipients.errors)}>
        <Options items={CAMPAIGN_RECIPIENTS} label={(value) => t(`email.recipients.${value}`)} />
      </SelectField>
      {/* Dimmed while another choice of recipients applies, yet still readable (AA contrast). */}
      <SelectField
        label={t('email.campaignForm.clients')}
        meta={fields.clientIds}
        errors={errorText(fields.clientIds.errors)}
        selectProps={{ multiple: true, size: 6 }}
        style={recipients === 'specific_clients' ? undefined : { opacity: 0.75 }}
      >
        <Options items={choices.clients} value={(client) => client.id} label={(client) => client.companyName} />
      </SelectField>
      <Field label={t('email.campaignForm.scheduledAt')} inputProps={getInputProps(fields.scheduledAt, { type: 'datetime-local' })} errors={errorText(fields.scheduledAt.errors)} />
      <FormErrors errors={formErrors} />
    </Flex>
  );
}

export function CampaignDialog({ open, onOpenChange, choices }: { open: boolean; onOpenChange: (open: boolean) => void; choices: CampaignChoices }) {
  return (
    <CreateFormDialog spec={CAMPAIGN_FORM} open={open} onOpenChange={onOpenChange}>
      {(fields, form) => <CampaignFields fields={fields} formErrors={form.errors} choices={choices} />}
    </CreateFormDialog>
  );
}

export function CampaignPanel({ lastResult, cancelTo, choices }: { lastResult?: EmailFormResult; cancelTo: string; choices: CampaignChoices }) {
  return (
    <CreateFormPanel spec={CAMPAIGN_FORM} lastResult={lastResult} cancelTo={cancelTo}>
      {(fields, form) => <CampaignFields fields={fields} formErrors={form.errors} choices={choices} />}
    </CreateFormPanel>
  );
}
