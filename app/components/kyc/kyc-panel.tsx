import { Badge, Box, Button, Callout, Card, Flex, Heading, Table, Text, VisuallyHidden } from '@radix-ui/themes';
import { Link, useNavigation } from '@remix-run/react';
import { SubmitRow, TextAreaField } from '~/components/kit/fields.tsx';
import { useTranslation } from 'react-i18next';
import type { KycApplication } from '~/onboarding/kyc-decision.server.ts';
import type { KycRefusalData } from '~/onboarding/kyc-page.server.ts';
import { useRefusalText } from '~/components/refusal-text.ts';
import { formatBytes, formatDate } from '~/utils/format.ts';
import { IntentForm } from '~/components/kit/intent-form.tsx';
import { AlertCallout } from '~/components/kit/callouts.tsx';

/**
 * The KYC review of one client (/clients/{id} and a KYC task's details on
 * /tasks): onboarding status, the last decision, an open request for
 * documents, the documents on file and, while the application is pending,
 * the three decisions. Each decision is its own form post (no JavaScript
 * needed); reject and request documents open as <details> with their text.
 */
const ONBOARDING_COLOURS = { pending: 'gray', in_progress: 'amber', completed: 'green', rejected: 'red' } as const;
const STATUS_COLOURS = { active: 'green', pending: 'amber', inactive: 'gray' } as const;

function DecisionForm({ clientId, decision, children }: { clientId: string; decision: string; children: React.ReactNode }) {
  return (
    <IntentForm intent="kyc" values={{ clientId, decision }} preventScrollReset>
      {children}
    </IntentForm>
  );
}

/** The two decisions that carry a text: the field it is posted in, the summary and submit texts, the colour. */
const TEXT_DECISIONS = {
  reject: { field: 'reason', summary: 'kyc.actions.reject', submit: 'kyc.actions.confirmReject', color: 'red' },
  request_documents: { field: 'message', summary: 'kyc.actions.requestDocuments', submit: 'kyc.actions.sendRequest', color: undefined },
} as const;

function TextForm({ clientId, decision, refusal }: { clientId: string; decision: keyof typeof TEXT_DECISIONS; refusal: KycRefusalData | null }) {
  const { field, summary, submit, color } = TEXT_DECISIONS[decision];
  const { t } = useTranslation();
  const message = useRefusalText();
  const busy = useBusy(clientId);
  const mine = refusal?.decision === decision ? refusal : null;
  const errors = mine?.errors?.[field];
  return (
    <details open={Boolean(mine)} data-testid={`kyc-${decision}`}>
      <Button asChild size="2" variant="soft" color={color}>
        <summary>{t(summary)}</summary>
      </Button>
      <Box mt="2" p="2" style={{ border: '1px solid var(--gray-a6)', borderRadius: 'var(--radius-2)' }}>
        <DecisionForm clientId={clientId} decision={decision}>
          <Flex direction="column" gap="2">
            <TextAreaField
              label={t(`kyc.fields.${field}`)}
              name={field}
              errors={errors?.map(message)}
              textAreaProps={{ required: true, maxLength: 5000, defaultValue: mine?.values[field] ?? '' }}
            />
            <SubmitRow submitLabel={t(submit)} busy={busy} justify="start" size="2" color={color} />
          </Flex>
        </DecisionForm>
      </Box>
    </details>
  );
}

function useBusy(clientId: string) {
  const navigation = useNavigation();
  return navigation.state === 'submitting' && navigation.formData?.get('intent') === 'kyc' && navigation.formData?.get('clientId') === clientId;
}

export function KycPanel({
  application,
  canDecide,
  refusal,
  headingLevel = 'h2',
}: {
  application: KycApplication;
  canDecide: boolean;
  refusal?: KycRefusalData | null;
  headingLevel?: 'h2' | 'h3';
}) {
  const { t } = useTranslation();
  const message = useRefusalText();
  const busy = useBusy(application.clientId);
  const mine = refusal && refusal.clientId === application.clientId ? refusal : null;
  // A refusal that names a field is shown at that field; any other above the forms.
  const general = mine && !(mine.errors && (mine.errors.reason || mine.errors.message)) ? mine.message : null;
  const last = application.lastDecision;
  return (
    <Card size="3" data-testid="kyc-panel" data-onboarding-status={application.onboardingStatus}>
      <Flex direction="column" gap="3">
        <Flex justify="between" align="center" gap="2" wrap="wrap">
          <Heading as={headingLevel} size="4">
            {t('kyc.panel.title')}
          </Heading>
          <Flex gap="2" wrap="wrap">
            <Badge color={ONBOARDING_COLOURS[application.onboardingStatus] ?? 'gray'} data-testid="kyc-onboarding-status">
              {t('kyc.panel.onboardingStatus')}: {t(`clients.onboarding.${application.onboardingStatus}`)}
            </Badge>
            <Badge color={STATUS_COLOURS[application.status] ?? 'gray'} variant="outline" data-testid="kyc-client-status">
              {t('kyc.panel.clientStatus')}: {t(`clients.status.${application.status}`)}
            </Badge>
          </Flex>
        </Flex>
        {last ? (
          <Text as="p" size="2" data-testid="kyc-last-decision">
            {t(`kyc.panel.last.${last.action}`, { by: last.by ?? t('kyc.panel.system'), date: formatDate(last.at), reason: last.reason ?? '' })}
          </Text>
        ) : null}
        {application.openRequest ? (
          <Callout.Root color="amber" data-testid="kyc-open-request">
            <Callout.Text>
              {t('kyc.panel.requestOpen', {
                date: formatDate(application.openRequest.createdAt),
                message: application.openRequest.message,
                until: formatDate(application.openRequest.expiresAt),
              })}
            </Callout.Text>
          </Callout.Root>
        ) : null}

        <Heading as={headingLevel === 'h2' ? 'h3' : 'h4'} size="3">
          {t('kyc.panel.documents')}
        </Heading>
        {application.documents.length === 0 ? (
          <Text size="2" color="gray">
            {t('kyc.panel.noDocuments')}
          </Text>
        ) : (
          <Table.Root size="1" data-testid="kyc-documents">
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeaderCell>{t('kyc.panel.documentType')}</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell>{t('kyc.panel.documentName')}</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell>{t('kyc.panel.uploaded')}</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell>
                  <VisuallyHidden>{t('kyc.panel.download')}</VisuallyHidden>
                </Table.ColumnHeaderCell>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {application.documents.map((document) => (
                <Table.Row key={document.id}>
                  <Table.Cell>{document.kycType ? t(`onboarding.kyc.types.${document.kycType}.label`) : t('kyc.panel.otherDocument')}</Table.Cell>
                  <Table.RowHeaderCell>
                    {document.name} <Text color="gray">({formatBytes(document.size)})</Text>
                  </Table.RowHeaderCell>
                  <Table.Cell>{formatDate(document.createdAt)}</Table.Cell>
                  <Table.Cell>
                    {/* A file download, not a page: reloadDocument keeps Remix from routing it. */}
                    <Link to={`/api/documents/${document.id}/download`} reloadDocument aria-label={`${t('kyc.panel.download')}: ${document.name}`}>
                      {t('kyc.panel.download')}
                    </Link>
                  </Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        )}

        {application.pending ? (
          canDecide ? (
            <Flex direction="column" gap="2" data-testid="kyc-actions">
              {general ? <AlertCallout>{message(general)}</AlertCallout> : null}
              <Flex gap="3" wrap="wrap" align="start">
                <DecisionForm clientId={application.clientId} decision="approve">
                  <Button type="submit" size="2" color="green" disabled={busy}>
                    {t('kyc.actions.approve')}
                  </Button>
                </DecisionForm>
                <TextForm clientId={application.clientId} decision="reject" refusal={mine} />
                {application.email ? (
                  <TextForm clientId={application.clientId} decision="request_documents" refusal={mine} />
                ) : (
                  <Text size="2" color="gray">
                    {t('kyc.panel.noEmailHint')}
                  </Text>
                )}
              </Flex>
            </Flex>
          ) : (
            <Text size="2" color="gray">
              {t('kyc.panel.managersOnly')}
            </Text>
          )
        ) : null}
      </Flex>
    </Card>
  );
}
