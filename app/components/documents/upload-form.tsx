import { Box, Button, Dialog, Flex, Switch, Text } from '@radix-ui/themes';
import { Form, useFetcher } from '@remix-run/react';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorList, Field } from '~/components/forms.tsx';
import { Options, SelectField, SubmitRow } from '~/components/kit/fields.tsx';
import { DOCUMENT_ENTITY_TYPES, DOCUMENT_TYPES, FILE_ACCEPT } from '~/documents/schemas.ts';
import { useRefusalText } from '~/components/refusal-text.ts';
import { AlertCallout } from '~/components/kit/callouts.tsx';

/** What the page action answers to a refused upload. */
export interface UploadResult {
  intent: 'upload';
  ok: boolean;
  message?: string;
  errors?: Record<string, string[]>;
  values?: Record<string, string>;
}

/** True once React runs in the browser: controls that JavaScript enables must stay usable before that. */
function useHydrated() {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}

/**
 * The upload form (docs/domain-model.md#validation): name, type, file (pdf/png/jpg/jpeg), entity type
 * then entity id, signature required. A real multipart post to the page
 * action, so it works without JavaScript; with JavaScript confirm stays
 * disabled until name, type and file are set, and the file name fills an empty name.
 */
export function UploadFields({ result, enhanced, onCancel }: { result?: UploadResult | null; enhanced: boolean; onCancel?: () => void }) {
  const { t } = useTranslation();
  const showRefusal = useRefusalText();
  const hydrated = useHydrated();
  const ids = useId();
  const values = result?.values ?? {};
  const [name, setName] = useState(values.name ?? '');
  const [type, setType] = useState(values.type ?? '');
  const [entityType, setEntityType] = useState(values.entityType ?? '');
  const [hasFile, setHasFile] = useState(false);
  const errors = result?.errors ?? {};
  const shown = (field: string) => errors[field]?.map(showRefusal);
  const ready = name.trim() !== '' && type !== '' && hasFile;
  return (
    <Flex direction="column" gap="3">
      <input type="hidden" name="intent" value="upload" />
      {enhanced ? <input type="hidden" name="enhanced" value="1" /> : null}
      {/* A file input has no kit field: its label and errors are wired here the same way. */}
      <Flex direction="column" gap="1">
        <Text as="label" htmlFor={`${ids}-file`} size="2" weight="medium">
          {t('documents.upload.file')}
        </Text>
        <input
          id={`${ids}-file`}
          type="file"
          name="file"
          accept={FILE_ACCEPT}
          aria-invalid={errors.file ? true : undefined}
          aria-describedby={errors.file ? `${ids}-file-error` : undefined}
          onChange={(event) => {
            const file = event.currentTarget.files?.[0];
            setHasFile(Boolean(file));
            if (file && name.trim() === '') setName(file.name);
          }}
        />
        <ErrorList id={`${ids}-file-error`} errors={shown('file')} />
      </Flex>
      <Field
        label={t('documents.upload.name')}
        inputProps={{ id: `${ids}-name`, name: 'name', value: name, maxLength: 255, onChange: (event) => setName(event.currentTarget.value) }}
        errors={shown('name')}
      />
      <SelectField
        label={t('documents.upload.type')}
        name="type"
        id={`${ids}-type`}
        errors={shown('type')}
        selectProps={{ value: type, onChange: (event) => setType(event.currentTarget.value) }}
      >
        <option value="">{t('documents.upload.selectType')}</option>
        <Options items={DOCUMENT_TYPES} label={(value) => t(`documents.types.${value}`)} />
      </SelectField>
      <Flex gap="3" wrap="wrap">
        <SelectField
          label={t('documents.upload.entityType')}
          name="entityType"
          id={`${ids}-entity-type`}
          errors={shown('entityType')}
          selectProps={{ value: entityType, onChange: (event) => setEntityType(event.currentTarget.value) }}
        >
          <option value="">{t('documents.upload.noEntity')}</option>
          <Options items={DOCUMENT_ENTITY_TYPES} label={(value) => t(`documents.entityTypes.${value}`)} />
        </SelectField>
        <Box flexGrow="1">
          <Field
            label={t('documents.upload.entityId')}
            inputProps={{
              id: `${ids}-entity-id`,
              name: 'entityId',
              defaultValue: values.entityId ?? '',
              disabled: hydrated && entityType === '',
              placeholder: entityType === '' ? t('documents.upload.entityIdPlaceholder') : undefined,
            }}
            errors={shown('entityId')}
          />
        </Box>
      </Flex>
      <Text as="label" size="2">
        <Flex gap="2" align="center">
          <Switch className="js-only" name="signatureRequired" value="true" defaultChecked={values.signatureRequired === 'true'} />
          <noscript>
            <input type="checkbox" name="signatureRequired" value="true" defaultChecked={values.signatureRequired === 'true'} />
          </noscript>
          {t('documents.upload.signatureRequired')}
        </Flex>
      </Text>
      {result && !result.ok && result.message ? <AlertCallout size="1">{showRefusal(result.message)}</AlertCallout> : null}
      <SubmitRow
        cancel={
          onCancel ? (
            <Button type="button" variant="soft" color="gray" onClick={onCancel}>
              {t('documents.upload.cancel')}
            </Button>
          ) : undefined
        }
        submitLabel={t('documents.upload.submit')}
        busy={false}
        disabled={hydrated && !ready}
      />
    </Flex>
  );
}

/** With JavaScript: the same form in a Radix dialog, posted by a fetcher; closes on success. */
export function UploadDialog({ defaultOpen }: { defaultOpen: boolean }) {
  const { t } = useTranslation();
  const fetcher = useFetcher<UploadResult>();
  const [open, setOpen] = useState(defaultOpen);
  const [formKey, setFormKey] = useState(0);
  useEffect(() => {
    if (fetcher.state === 'idle' && fetcher.data?.ok) {
      setOpen(false);
      setFormKey((key) => key + 1);
    }
  }, [fetcher.state, fetcher.data]);
  const busy = fetcher.state !== 'idle';
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger>
        <Button className="js-only">{t('documents.uploadButton')}</Button>
      </Dialog.Trigger>
      <Dialog.Content maxWidth="560px">
        <Dialog.Title as="h2">{t('documents.upload.title')}</Dialog.Title>
        <Dialog.Description size="2" color="gray" mb="3">
          {t('documents.upload.description')}
        </Dialog.Description>
        <fetcher.Form method="post" encType="multipart/form-data" key={formKey} aria-busy={busy}>
          <fieldset disabled={busy} style={{ border: 0, padding: 0, margin: 0 }}>
            <UploadFields result={fetcher.data && !fetcher.data.ok ? fetcher.data : null} enhanced onCancel={() => setOpen(false)} />
          </fieldset>
        </fetcher.Form>
      </Dialog.Content>
    </Dialog.Root>
  );
}

/** Without JavaScript (?upload=1, or after a refused post): the form inline on the page. */
export function InlineUploadForm({ result }: { result?: UploadResult | null }) {
  return (
    <Form method="post" encType="multipart/form-data" replace>
      <UploadFields result={result} enhanced={false} />
    </Form>
  );
}
