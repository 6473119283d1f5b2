import { Badge, Button, Card, Flex, Heading, Text } from '@radix-ui/themes';
import { useNavigation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import type { DocumentDto } from '~/documents/documents.server.ts';
import { formatBytes, formatDate, formatDateTime } from '~/utils/format.ts';
import { IntentForm } from '~/components/kit/intent-form.tsx';

const SIGNATURE_COLORS = { signed: 'green', pending: 'amber', rejected: 'red' } as const;
const VIEWABLE = new Set(['application/pdf', 'image/png', 'image/jpeg']);

/**
 * One document (docs/screens.md): name, type badge, size, upload date, uploader,
 * signature status, and download, view and sign. Sign shows only when a
 * signature is required, the status is pending, and the role may sign (docs/screens.md).
 */
export function DocumentCard({ document, canSign }: { document: DocumentDto; canSign: boolean }) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const signing = navigation.formData?.get('intent') === 'sign' && navigation.formData.get('id') === document.id;
  const base = `/api/documents/${document.id}`;
  return (
    <Card data-testid={`document-${document.id}`} className="document-card">
      <Flex direction="column" gap="2">
        <Flex justify="between" align="start" gap="2" wrap="wrap">
          <Heading as="h3" size="3" style={{ wordBreak: 'break-word' }}>
            {document.name}
          </Heading>
          <Flex gap="1" wrap="wrap">
            <Badge variant="soft">{t(`documents.types.${document.type}`)}</Badge>
            {document.signatureRequired && document.signatureStatus ? (
              <Badge color={SIGNATURE_COLORS[document.signatureStatus]} data-testid="signature-status">
                {t(`documents.signature.${document.signatureStatus}`)}
              </Badge>
            ) : null}
          </Flex>
        </Flex>
        <Text size="2" color="gray">
          {t('documents.card.size')}: {formatBytes(document.size)} · {t('documents.card.uploaded')}: {formatDate(document.createdAt)}
        </Text>
        <Text size="2" color="gray">
          {t('documents.card.uploadedBy')}: {document.uploadedBy ?? t('documents.card.applicant')}
        </Text>
        {document.signatureStatus === 'signed' && document.signedAt ? (
          <Text size="1" color="gray">
            {t('documents.card.signedBy', { name: document.signedBy ?? '—', date: formatDateTime(document.signedAt) })}
          </Text>
        ) : null}
        <Flex gap="2" wrap="wrap" mt="1">
          <Button asChild size="1" variant="soft">
            <a href={`${base}/download`} download>
              {t('documents.card.download')}
            </a>
          </Button>
          {VIEWABLE.has(document.mimeType) ? (
            <Button asChild size="1" variant="soft">
              <a href={`${base}/view`} target="_blank" rel="noopener noreferrer">
                {t('documents.card.view')}
              </a>
            </Button>
          ) : null}
          {canSign && document.signatureRequired && document.signatureStatus === 'pending' ? (
            <IntentForm intent="sign" values={{ id: document.id }} replace preventScrollReset>
              <Button type="submit" size="1" disabled={signing}>
                {signing ? t('documents.card.signing') : t('documents.card.sign')}
              </Button>
            </IntentForm>
          ) : null}
        </Flex>
      </Flex>
    </Card>
  );
}
