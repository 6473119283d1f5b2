import { Button, Callout, Flex, Text } from '@radix-ui/themes';
import { Form, useNavigation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { PublicFrame } from './public-frame.tsx';
import type { DocumentRequestState } from '~/onboarding/kyc-decision.server.ts';
import { KYC_ACCEPT, KYC_DOCUMENT_TYPES, KYC_MAX_FILE_MB } from '~/onboarding/kyc.ts';
import { formatDate } from '~/utils/format.ts';
import { KycFileCard, WizardFormErrors } from './fields.tsx';
import { DoneCallout } from '~/components/kit/callouts.tsx';

/**
 * The page behind the link staff email when they need more documents
 * (app/onboarding/kyc-decision.server.ts): the look of the registration
 * wizard, one multipart form post (no JavaScript needed), and a clear page
 * for a link that was used, replaced, decided, expired or never existed.
 */
export function DocumentRequestPage({ request, fileErrors, formErrors }: { request: DocumentRequestState; fileErrors?: Partial<Record<string, string[]>>; formErrors?: string[] }) {
  const { t } = useTranslation();
  const busy = useNavigation().state === 'submitting';
  return (
    <PublicFrame title={t('kyc.upload.title')} subtitle={t('kyc.upload.subtitle')}>
      {request.state === 'open' ? (
        <Form method="post" encType="multipart/form-data">
          <Flex direction="column" gap="3">
            <Text as="p">{t('kyc.upload.intro', { company: request.companyName })}</Text>
            <Callout.Root color="blue" data-testid="request-message">
              <Callout.Text style={{ whiteSpace: 'pre-line' }}>{request.message}</Callout.Text>
            </Callout.Root>
            <Text as="p" size="2">
              {t('kyc.upload.instructions', { max: KYC_MAX_FILE_MB, date: formatDate(request.expiresAt) })}
            </Text>
            <WizardFormErrors errors={formErrors?.map((error) => (error.startsWith('kyc.') ? t(error) : error))} />
            {KYC_DOCUMENT_TYPES.map((kycType) => {
              const errors = fileErrors?.[`file_${kycType}`];
              return (
                <KycFileCard key={kycType} kycType={kycType} errors={errors}>
                  <input
                    id={`file-${kycType}`}
                    type="file"
                    name={`file_${kycType}`}
                    accept={KYC_ACCEPT}
                    aria-invalid={errors?.length ? true : undefined}
                    aria-describedby={errors?.length ? `file-${kycType}-error` : undefined}
                  />
                </KycFileCard>
              );
            })}
            <Flex justify="end">
              <Button type="submit" disabled={busy}>
                {busy ? t('kyc.upload.sending') : t('kyc.upload.send')}
              </Button>
            </Flex>
          </Flex>
        </Form>
      ) : request.state === 'submitted' ? (
        <DoneCallout testId="request-submitted">{t('kyc.upload.submitted', { count: request.documents })}</DoneCallout>
      ) : (
        <Callout.Root color="amber" role="status" data-testid={`request-${request.state}`}>
          <Callout.Text>{t(`kyc.upload.${request.state}`)}</Callout.Text>
        </Callout.Root>
      )}
    </PublicFrame>
  );
}
