import { getFormProps, getInputProps, type SubmissionResult } from '@conform-to/react';
import { Button, Card, Flex, Heading, Text } from '@radix-ui/themes';
import { Form, Link, useNavigation } from '@remix-run/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Field, FormErrors } from '~/components/forms.tsx';
import { EMAIL_TRIGGERS, TEMPLATE_VARIABLES, templateFormSchema } from '~/email/schemas.ts';
import { useRefusalText, useRefusalTexts } from '~/components/refusal-text.ts';
import { encodeRefusal, type RefusalParams } from '~/utils/refusals.ts';
import { CreateFormDialog, CreateFormPanel, type CreateFormSpec } from '~/components/kit/create-form.tsx';
import { Options, SelectField, SubmitRow, TextAreaField } from '~/components/kit/fields.tsx';
import { useZodForm, type ZodFormFields } from '~/components/kit/zod-form.ts';

/**
 * The template dialog of docs/screens.md (JavaScript: a fetcher post, closes on
 * success) and the same form as a page panel for ?new=template (a plain post).
 */
export type EmailFormResult = SubmissionResult<string[]>;
export interface EmailActionData {
  intent: string;
  result: EmailFormResult;
  created?: boolean;
  /** The template of an updateTemplate answer. */
  id?: string;
}

const TEMPLATE_FORM: CreateFormSpec<typeof templateFormSchema> = {
  name: 'template',
  schema: templateFormSchema,
  defaultValue: { trigger: 'manual', isActive: 'on' },
  intent: 'createTemplate',
  texts: {
    title: 'email.templateForm.title',
    description: 'email.templateForm.description',
    cancel: 'email.templateForm.cancel',
    save: 'email.templateForm.submit',
    saving: 'email.templateForm.submitting',
  },
  failureToast: { title: 'email.toast.errorTitle', description: 'email.toast.createTemplateFailed', variant: 'destructive' },
  maxWidth: '680px',
  testId: 'template-panel',
};

function TemplateFields({ fields, formErrors }: { fields: ZodFormFields<typeof templateFormSchema>; formErrors?: string[] }) {
  const { t } = useTranslation();
  const errorText = useRefusalTexts();
  return (
    <Flex direction="column" gap="3">
      <Field label={t('email.templateForm.name')} inputProps={getInputProps(fields.name, { type: 'text' })} errors={errorText(fields.name.errors)} />
      <SelectField label={t('email.templateForm.trigger')} meta={fields.trigger} errors={errorText(fields.trigger.errors)}>
        <Options items={EMAIL_TRIGGERS} label={(trigger) => t(`email.triggers.${trigger}`)} />
      </SelectField>
      <Field label={t('email.templateForm.subject')} inputProps={getInputProps(fields.subject, { type: 'text' })} errors={errorText(fields.subject.errors)} />
      <TextAreaField
        label={t('email.templateForm.body')}
        meta={fields.body}
        errors={errorText(fields.body.errors)}
        rows={8}
        hint={`${t('email.templateForm.bodyHint')} ${TEMPLATE_VARIABLES.map((name) => `{{${name}}}`).join(', ')}`}
      />
      <Text as="label" size="2">
        <Flex gap="2" align="center">
          <input {...getInputProps(fields.isActive, { type: 'checkbox' })} role="switch" className="native-switch" />
          {t('email.templateForm.isActive')}
        </Flex>
      </Text>
      <FormErrors errors={formErrors} />
    </Flex>
  );
}

/** The sample-data preview (POST /api/email/templates/preview), shown in a sandboxed frame. */
function PreviewButton({ formId }: { formId: string }) {
  const { t } = useTranslation();
  const showRefusal = useRefusalText();
  const [preview, setPreview] = useState<{ subject: string; html: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = async () => {
    const form = document.getElementById(formId) as HTMLFormElement | null;
    if (!form) return;
    const data = new FormData(form);
    const response = await fetch('/api/email/templates/preview', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ subject: String(data.get('subject') ?? ''), body: String(data.get('body') ?? '') }),
    });
    const json = (await response.json()) as { subject: string; html: string; message?: string; code?: string; params?: RefusalParams };
    if (response.ok) {
      setPreview(json);
      setError(null);
    } else {
      setPreview(null);
      setError(json.code ? encodeRefusal(json.code, json.params) : (json.message ?? response.statusText));
    }
  };
  return (
    <Flex direction="column" gap="2">
      <Button type="button" variant="soft" color="gray" onClick={() => void load()}>
        {t('email.templateForm.preview')}
      </Button>
      {error ? (
        <Text size="1" color="red" role="alert">
          {showRefusal(error)}
        </Text>
      ) : null}
      {preview ? (
        <Card>
          <Text size="2" weight="bold" as="p">
            {t('email.templateForm.previewTitle')}: {preview.subject}
          </Text>
          <iframe title={t('email.templateForm.previewTitle')} sandbox="" srcDoc={preview.html} style={{ width: '100%', height: 360, border: 0 }} />
        </Card>
      ) : null}
    </Flex>
  );
}

export function TemplateDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <CreateFormDialog spec={TEMPLATE_FORM} open={open} onOpenChange={onOpenChange}>
      {(fields, form) => (
        <>
          <TemplateFields fields={fields} formErrors={form.errors} />
          <PreviewButton formId={form.id} />
        </>
      )}
    </CreateFormDialog>
  );
}

export function TemplatePanel({ lastResult, cancelTo }: { lastResult?: EmailFormResult; cancelTo: string }) {
  return (
    <CreateFormPanel spec={TEMPLATE_FORM} lastResult={lastResult} cancelTo={cancelTo}>
      {(fields, form) => <TemplateFields fields={fields} formErrors={form.errors} />}
    </CreateFormPanel>
  );
}

/**
 * ?edit=<id>: the template's fields, filled, as a plain post (intent
 * updateTemplate) validated with the same schema as the create form; the
 * server's unknown-variable and syntax errors (with their lines) come back
 * into the fields.
 */
export function TemplateEditPanel({
  template,
  lastResult,
  cancelTo,
}: {
  template: { id: string; name: string; trigger: string; subject: string; body: string; isActive: boolean };
  lastResult?: EmailFormResult;
  cancelTo: string;
}) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const saving = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'updateTemplate';
  const [form, fields] = useZodForm(templateFormSchema, {
    id: `edit-template-${template.id}`,
    lastResult,
    defaultValue: { name: template.name, trigger: template.trigger, subject: template.subject, body: template.body, isActive: template.isActive ? 'on' : undefined },
  });
  return (
    <Card size="3" data-testid="template-edit-panel">
      <Form method="post" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="updateTemplate" />
        <input type="hidden" name="id" value={template.id} />
        <Flex direction="column" gap="3">
          <Heading as="h2" size="4">
            {t('email.templateForm.editTitle', { name: template.name })}
          </Heading>
          <Text size="2" color="gray">
            {t('email.templateForm.description')}
          </Text>
          <TemplateFields fields={fields} formErrors={form.errors} />
          <SubmitRow
            cancel={{ to: cancelTo, label: t('email.templateForm.cancel') }}
            submitLabel={t('email.templateForm.save')}
            busyLabel={t('email.templateForm.saving')}
            busy={saving}
          />
        </Flex>
      </Form>
    </Card>
  );
}

/** ?preview=<id>: the template rendered server-side with sample data; the HTML in a sandboxed frame, and the plain-text version. */
export function TemplatePreviewPanel({
  template,
  preview,
  closeTo,
  editTo,
}: {
  template: { name: string };
  preview: { subject: string; html: string; text: string };
  closeTo: string;
  editTo?: string;
}) {
  const { t } = useTranslation();
  return (
    <Card size="3" data-testid="template-preview-panel">
      <Flex direction="column" gap="3">
        <Flex justify="between" align="center" gap="3" wrap="wrap">
          <Heading as="h2" size="4">
            {t('email.templatePreview.title', { name: template.name })}
          </Heading>
          <Flex gap="2">
            {editTo ? (
              <Button asChild variant="soft">
                <Link to={editTo}>{t('email.templates.edit')}</Link>
              </Button>
            ) : null}
            <Button asChild variant="soft" color="gray">
              <Link to={closeTo}>{t('email.templatePreview.close')}</Link>
            </Button>
          </Flex>
        </Flex>
        <Text size="1" color="gray">
          {t('email.templatePreview.sampleNote')}
        </Text>
        <Text size="2" weight="bold" as="p" data-testid="template-preview-subject">
          {t('email.templatePreview.subject')}: {preview.subject}
        </Text>
        <iframe
          title={t('email.templatePreview.htmlTitle')}
          sandbox=""
          srcDoc={preview.html}
          data-testid="template-preview-html"
          style={{ width: '100%', height: 420, border: '1px solid var(--gray-a5)', borderRadius: 'var(--radius-2)' }}
        />
        <Heading as="h3" size="3">
          {t('email.templatePreview.textTitle')}
        </Heading>
        <pre data-testid="template-preview-text" style={{ whiteSpace: 'pre-wrap', margin: 0, fontSize: 'var(--font-size-2)' }}>
          {preview.text}
        </pre>
      </Flex>
    </Card>
  );
}
