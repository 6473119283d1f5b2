import type { SubmissionResult } from '@conform-to/react';
import { Badge, Flex, Table, Text } from '@radix-ui/themes';
import { Link, useNavigation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { Section } from '~/components/clients/party-detail.tsx';
import { FormErrors } from '~/components/forms.tsx';
import { SubmitRow, TextAreaField } from '~/components/kit/fields.tsx';
import { TableHead } from '~/components/kit/table-head.tsx';
import type { DunningDto, DunningNoticeDto } from '~/dunning/dunning.server.ts';
import { formatDate, formatDateTime, formatEur } from '~/utils/format.ts';
import { IntentForm } from '~/components/kit/intent-form.tsx';

/**
 * The invoice page's reminders to the debtor (docs/screens.md): each level reached — its day, sent or skipped with the
 * reason, the email log's status, the payment slip it carried — the hold and, for a manager, the form that sets or
 * lifts it; and the current payment slip ('Uplatnica') to download.
 */
export function DunningSection({
  dunning,
  canHold,
  hasPaymentReference,
  lastResult,
}: {
  dunning: DunningDto;
  canHold: boolean;
  hasPaymentReference: boolean;
  lastResult?: SubmissionResult<string[]> | null;
}) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const busy = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'dunning-hold';
  const errors = lastResult?.error ?? {};
  const { hold } = dunning;
  return (
    <Section
      title={t('dunning.panel.title')}
      id="dunning"
      aside={
        hasPaymentReference ? (
          // A file download, not a page: reloadDocument keeps Remix from routing it.
          <Link to={`/api/invoices/${dunning.invoiceId}/payment-slip`} reloadDocument data-testid="payment-slip-link">
            {t('dunning.panel.currentSlip')}
          </Link>
        ) : null
      }
    >
      <Flex direction="column" gap="3">
        <Text size="2" color={hold ? undefined : 'gray'} weight={hold ? 'bold' : undefined} data-testid="dunning-hold-state">
          {hold ? t('dunning.panel.onHold', { when: formatDateTime(hold.heldAt), who: hold.heldByName ?? '—', reason: hold.reason }) : t('dunning.panel.notOnHold')}
        </Text>
        {dunning.notices.length === 0 ? (
          <Text color="gray">{t('dunning.panel.empty')}</Text>
        ) : (
          <Table.Root size="1" aria-label={t('dunning.panel.historyLabel')} data-testid="dunning-history">
            <TableHead
              columns={[
                t('dunning.panel.level'),
                t('dunning.panel.day'),
                t('dunning.panel.outcome'),
                t('dunning.panel.email'),
                { label: t('dunning.panel.amount'), justify: 'end' },
                t('dunning.panel.slip'),
              ]}
            />
            <Table.Body>
              {dunning.notices.map((notice) => (
                <NoticeRow key={notice.id} notice={notice} />
              ))}
            </Table.Body>
          </Table.Root>
        )}
        {canHold ? (
          <IntentForm intent="dunning-hold" values={{ hold: hold ? 'false' : 'true' }} data-testid="dunning-hold-form">
            <Flex direction="column" gap="2">
              <FormErrors errors={errors[''] ?? null} />
              <TextAreaField
                name="reason"
                id="dunning-hold-reason"
                label={hold ? t('dunning.panel.liftNote') : t('dunning.panel.holdReason')}
                errors={errors.reason}
                rows={2}
                textAreaProps={{ required: !hold, maxLength: 5000 }}
              />
              <SubmitRow busy={busy} submitLabel={hold ? t('dunning.panel.lift') : t('dunning.panel.hold')} justify="start" testId="dunning-hold-submit" />
            </Flex>
          </IntentForm>
        ) : null}
      </Flex>
    </Section>
  );
}

function NoticeRow({ notice }: { notice: DunningNoticeDto }) {
  const { t } = useTranslation();
  return (
    <Table.Row data-level={notice.level} data-status={notice.status}>
      <Table.Cell>{t('dunning.settings.level', { level: notice.level })}</Table.Cell>
      <Table.Cell>{formatDate(notice.day)}</Table.Cell>
      <Table.Cell>
        {notice.status === 'sent'
          ? notice.recipient
            ? t('dunning.panel.sent', { to: notice.recipient })
            : t('dunning.panel.sentNoAddress')
          : t('dunning.panel.skipped', { reason: t(`dunning.panel.skipReasons.${notice.skipReason}`) })}
      </Table.Cell>
      <Table.Cell>
        {notice.emailStatus ? <Badge color={notice.emailStatus === 'failed' ? 'red' : 'gray'}>{t(`dunning.panel.emailStatus.${notice.emailStatus}`)}</Badge> : '—'}
      </Table.Cell>
      <Table.Cell justify="end">{formatEur(notice.openAmount)}</Table.Cell>
      <Table.Cell>
        {notice.documentId ? (
          <Link to={`/api/documents/${notice.documentId}/download`} reloadDocument>
            {t('dunning.panel.download')}
          </Link>
        ) : (
          '—'
        )}
      </Table.Cell>
    </Table.Row>
  );
}
