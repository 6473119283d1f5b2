import { CheckCircledIcon } from '@radix-ui/react-icons';
import { Badge, Button, Callout, Flex, Text } from '@radix-ui/themes';
import { Form, useFetcher, useNavigation } from '@remix-run/react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatBytes, hasAllowedExtension, KYC_ACCEPT, KYC_DOCUMENT_TYPES, KYC_MAX_FILE_BYTES, type KycDocumentType } from '~/onboarding/kyc.ts';
import { KycFileCard, WizardFormErrors } from './fields.tsx';

export interface AttachedFile {
  kycType: KycDocumentType;
  fileName: string;
  size: number;
  mimeType: string;
}

type FileErrors = Partial<Record<string, string[]>>;

/** True once React runs in the browser: then uploads go through the signed-URL flow. */
function useHydrated() {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}

/**
 * The wizard's step 3 (docs/screens.md) and its upload rules (docs/domain-model.md#validation). Without JavaScript the file inputs are
 * part of the multipart form post. With JavaScript a chosen file is sent at
 * once: POST /api/objects/upload for a signed address, PUT the bytes there,
 * then the objectId is posted to this step, which claims it into the draft.
 */
function KycCard({ kycType, attached, errors }: { kycType: KycDocumentType; attached?: AttachedFile; errors?: string[] }) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const fetcher = useFetcher<{ fileErrors?: FileErrors; formErrors?: string[] }>();
  const [localError, setLocalError] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);
  const label = t(`onboarding.kyc.types.${kycType}.label`);
  const inputId = `file-${kycType}`;
  const shown = localError ? [localError] : (fetcher.data?.fileErrors?.[`file_${kycType}`] ?? fetcher.data?.formErrors ?? errors);

  async function upload(file: File) {
    setLocalError(null);
    // The browser checks first so a wrong file costs no upload; the server checks again by content.
    if (!hasAllowedExtension(file.name)) return setLocalError('onboarding.upload.invalidType');
    if (file.size > KYC_MAX_FILE_BYTES) return setLocalError('onboarding.upload.tooLarge');
    setUploading(true);
    try {
      const slot = await fetch('/api/objects/upload', { method: 'POST', credentials: 'same-origin' });
      if (!slot.ok) throw new Error(String(slot.status));
      const { uploadURL, objectId } = (await slot.json()) as { uploadURL: string; objectId: string };
      const put = await fetch(uploadURL, {
        method: 'PUT',
        headers: { 'Content-Type': file.type || 'application/octet-stream', 'X-File-Name': encodeURIComponent(file.name) },
        body: file,
        credentials: 'same-origin',
      });
      if (put.status === 413) return setLocalError('onboarding.upload.tooLarge');
      if (put.status === 415) return setLocalError('onboarding.upload.invalidType');
      if (!put.ok) throw new Error(String(put.status));
      fetcher.submit({ step: '3', intent: 'attach', kycType, objectId, fileName: file.name }, { method: 'post', action: '/onboarding?step=3' });
    } catch {
      setLocalError('onboarding.upload.error');
    } finally {
      setUploading(false);
    }
  }

  return (
    <KycFileCard
      kycType={kycType}
      errors={shown}
      status={
        attached ? (
          <Badge color="green">
            <CheckCircledIcon /> {t('onboarding.kyc.attached', { name: attached.fileName, size: formatBytes(attached.size) })}
          </Badge>
        ) : (
          <Badge color="gray">{t('onboarding.kyc.notAttached')}</Badge>
        )
      }
    >
      <input
        id={inputId}
        type="file"
        // Without JavaScript the file rides in the form post; with it, it is uploaded on its own.
        name={hydrated ? undefined : `file_${kycType}`}
        accept={KYC_ACCEPT}
        aria-label={t('onboarding.kyc.choose', { label })}
        disabled={uploading || fetcher.state !== 'idle'}
        onChange={(event) => {
          const file = event.currentTarget.files?.[0];
          if (hydrated && file) void upload(file).finally(() => (event.target.value = ''));
        }}
      />
      {uploading || fetcher.state !== 'idle' ? (
        <Text size="1" color="gray">
          {t('onboarding.actions.uploading')}
        </Text>
      ) : null}
    </KycFileCard>
  );
}

export function DocumentsStep({ files, missing, fileErrors, formErrors }: { files: AttachedFile[]; missing: KycDocumentType[]; fileErrors?: FileErrors; formErrors?: string[] }) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const busy = useNavigation().state === 'submitting';
  const byType = new Map(files.map((file) => [file.kycType, file]));
  return (
    <Form method="post" action="/onboarding?step=3" encType="multipart/form-data">
      <input type="hidden" name="step" value="3" />
      <Flex direction="column" gap="3">
        <Text as="p" size="2">
          {t('onboarding.kyc.intro', { max: KYC_MAX_FILE_BYTES / (1024 * 1024) })}
        </Text>
        <WizardFormErrors errors={formErrors} />
        <Callout.Root color={missing.length ? 'amber' : 'green'} data-testid="kyc-missing">
          <Callout.Text>
            {missing.length ? t('onboarding.kyc.missing', { types: missing.map((type) => t(`onboarding.kyc.types.${type}.label`)).join(', ') }) : t('onboarding.kyc.allPresent')}
          </Callout.Text>
        </Callout.Root>
        {KYC_DOCUMENT_TYPES.map((kycType) => (
          <KycCard key={kycType} kycType={kycType} attached={byType.get(kycType)} errors={fileErrors?.[`file_${kycType}`]} />
        ))}
      </Flex>
      <Flex justify="between" gap="2" mt="4" wrap="wrap">
        <Button type="submit" name="intent" value="previous" variant="soft" disabled={busy}>
          {t('onboarding.actions.previous')}
        </Button>
        {hydrated ? null : (
          <Button type="submit" name="intent" value="upload" variant="outline" disabled={busy}>
            {t('onboarding.actions.upload')}
          </Button>
        )}
        <Button type="submit" name="intent" value="submit" disabled={busy}>
          {busy ? t('onboarding.actions.submitting') : t('onboarding.actions.submit')}
        </Button>
      </Flex>
    </Form>
  );
}
