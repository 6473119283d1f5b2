import { Button, Callout, Dialog, Flex, Switch, Text, TextField } from '@radix-ui/themes';
import { Form, useFetcher } from '@remix-run/react';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DOCUMENT_ENTITY_TYPES, DOCUMENT_TYPES, FILE_ACCEPT } from '~/documents/schemas.ts';
import { useRefusalText } from '~/components/refusal-text.ts';

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

function FieldErrors({ id, errors }: { id: string; errors?: string[] }) {
  const showRefusal = useRefusalText();
  if (!errors?.length) return null;
  return (
    <Text id={id} size="1" color="red" role="alert">
      {errors.map((error) => showRefusal(error)).join(' ')}
    </Text>
  );
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
  const ready = name.trim() !== '' && type !== '' && hasFile;
  return (
    <Flex direction="column" gap="3">
      <input type="hidden" name="intent" value="upload" />
      {enhanced ? <input type="hidden" name="enhanced" value="1" /> : null}
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
          onChange={(event) => {
            const file = event.currentTarget.files?.[0];
            setHasFile(Boolean(file));
            if (file && name.trim() === '') setName(file.name);
          }}
        />
        <FieldErrors id={`${ids}-file-error`} errors={errors.file} />
      </Flex>
      <Flex direction="column" gap="1">
        <Text as="label" htmlFor={`${ids}-name`} size="2" weight="medium">
          {t('documents.upload.name')}
        </Text>
        <TextField.Root id={`${ids}-name`} name="name" value={name} maxLength={255} onChange={(event) => setName(event.currentTarget.value)} />
        <FieldErrors id={`${ids}-name-error`} errors={errors.name} />
      </Flex>
      <Flex direction="column" gap="1">
        <Text as="label" htmlFor={`${ids}-type`} size="2" weight="medium">
          {t('documents.upload.type')}
        </Text>
        <select id={`${ids}-type`} name="type" className="native-select" value={type} onChange={(event) => setType(event.currentTarget.value)}>
          <option value="">{t('documents.upload.selectType')}</option>
          {DOCUMENT_TYPES.map((value) => (
            <option key={value} value={value}>
              {t(`documents.types.${value}`)}
            </option>
          ))}
        </select>
        <FieldErrors id={`${ids}-type-error`} errors={errors.type} />
      </Flex>
      <Flex gap="3" wrap="wrap">
        <Flex direction="column" gap="1">
          <Text as="label" htmlFor={`${ids}-entity-type`} size="2" weight="medium">
            {t('documents.upload.entityType')}
          </Text>
          <select
            id={`${ids}-entity-type`}
            name="entityType"
            className="native-select"
            value={entityType}
            onChange={(event) => setEntityType(event.currentTarget.value)}
          >
            <option value="">{t('documents.upload.noEntity')}</option>
            {DOCUMENT_ENTITY_TYPES.map((value) => (
              <option key={value} value={value}>
                {t(`documents.entityTypes.${value}`)}
              </option>
            ))}
          </select>
          <FieldErrors id={`${ids}-entity-type-error`} errors={errors.entityType} />
        </Flex>
        <Flex direction="column" gap="1" flexGrow="1">
          <Text as="label" htmlFor={`${ids}-entity-id`} size="2" weight="medium">
            {t('documents.upload.entityId')}
          </Text>
          <TextField.Root
            id={`${ids}-entity-id`}
            name="entityId"
            defaultValue={values.entityId ?? ''}
            disabled={hydrated && entityType === ''}
            placeholder={entityType === '' ? t('documents.upload.entityIdPlaceholder') : undefined}
          />
          <FieldErrors id={`${ids}-entity-id-error`} errors={errors.entityId} />
        </Flex>
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
      {result && !result.ok && result.message ? (
        <Callout.Root color="red" role="alert" size="1">
          <Callout.Text>{showRefusal(result.message)}</Callout.Text>
        </Callout.Root>
      ) : null}
      <Flex gap="3" justify="end">
        {onCancel ? (
          <Button type="button" variant="soft" color="gray" onClick={onCancel}>
            {t('documents.upload.cancel')}
          </Button>
        ) : null}
        <Button type="submit" disabled={hydrated && !ready}>
          {t('documents.upload.submit')}
        </Button>
      </Flex>
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
