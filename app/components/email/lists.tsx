import { Badge, Button, Card, Flex, Grid, Heading, Progress, Text } from '@radix-ui/themes';
import { Link, useFetcher } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import type { CampaignDto } from '~/email/campaigns.server.ts';
import type { EmailLogDto, EmailSummary } from '~/email/logs.server.ts';
import type { TemplateDto } from '~/email/templates.server.ts';
import { FigureCard } from '~/components/kit/figure-card.tsx';
import { formatDate, formatDateTime } from '~/utils/format.ts';
import { CampaignStatusBadge, LogStatusBadge } from './display.tsx';
import { RecordCard } from '~/components/kit/record-card.tsx';
import { LightHeading, LightText } from '~/components/kit/light.tsx';

/** The summary cards, template/campaign cards and log rows of /email-automation (docs/screens.md). */

export const TEMPLATE_PREVIEW_CHARS = 150;
export const LOG_LIMIT = 50;

const ONE_DECIMAL = new Intl.NumberFormat('hr-HR', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
const percent = (value: number) => ONE_DECIMAL.format(value);
const share = (part: number, total: number) => (total === 0 ? 0 : Math.round((part * 1000) / total) / 10);

export function SummaryCards({ summary }: { summary: EmailSummary }) {
  const { t } = useTranslation();
  const cards: { key: string; value: number; note?: string }[] = [
    { key: 'totalSent', value: summary.totalSent },
    { key: 'opened', value: summary.opened, note: t('email.summary.ofTotal', { percent: percent(summary.openedPercent) }) },
    { key: 'clicked', value: summary.clicked, note: t('email.summary.ofTotal', { percent: percent(summary.clickedPercent) }) },
    { key: 'activeTemplates', value: summary.activeTemplates },
    { key: 'campaignsInProgress', value: summary.campaignsInProgress },
  ];
  return (
    <Grid columns={{ initial: '2', md: '5' }} gap="3" data-testid="email-summary">
      {cards.map((card) => (
        <FigureCard key={card.key} testId={`summary-${card.key}`} label={t(`email.summary.${card.key}`)} labelSize="1" value={card.value} note={card.note} />
      ))}
    </Grid>
  );
}

export function TemplateCard({ template, canEdit }: { template: TemplateDto; canEdit: boolean }) {
  const { t } = useTranslation();
  const fetcher = useFetcher({ key: `toggle-${template.id}` });
  // Optimistic while the toggle is on its way.
  const pending = fetcher.formData?.get('isActive');
  const active = typeof pending === 'string' ? pending === 'true' : template.isActive;
  const preview = template.body.length > TEMPLATE_PREVIEW_CHARS ? `${template.body.slice(0, TEMPLATE_PREVIEW_CHARS)}…` : template.body;
  return (
    <Card size="2" data-testid="template-card">
      <Flex direction="column" gap="2">
        <Flex justify="between" align="start" gap="2">
          <Flex direction="column">
            <Heading as="h3" size="3">
              {template.name}
            </Heading>
            <Text size="1" color="gray">
              {t(`email.triggers.${template.trigger}`)}
            </Text>
          </Flex>
          <Flex align="center" gap="2">
            <Badge color={active ? 'green' : 'gray'}>{active ? t('email.templates.active') : t('email.templates.inactive')}</Badge>
            {canEdit ? (
              <fetcher.Form method="post">
                <input type="hidden" name="intent" value="toggleTemplate" />
                <input type="hidden" name="id" value={template.id} />
                <input type="hidden" name="isActive" value={String(!active)} />
                <Button
                  type="submit"
                  size="1"
                  variant={active ? 'solid' : 'soft'}
                  color={active ? 'green' : 'gray'}
                  role="switch"
                  aria-checked={active}
                  aria-label={t('email.templates.toggle')}
                >
                  {active ? '●' : '○'}
                </Button>
              </fetcher.Form>
            ) : null}
          </Flex>
        </Flex>
        <Text size="2" weight="medium">
          {template.subject}
        </Text>
        <Text size="2" color="gray" style={{ whiteSpace: 'pre-line' }} data-testid="template-body-preview">
          {preview}
        </Text>
        <Flex gap="2">
          {canEdit ? (
            <Button asChild size="1" variant="soft">
              <Link to={`/email-automation?edit=${template.id}`} aria-label={t('email.templates.editLabel', { name: template.name })}>
                {t('email.templates.edit')}
              </Link>
            </Button>
          ) : null}
          <Button asChild size="1" variant="soft" color="gray">
            <Link to={`/email-automation?preview=${template.id}`} aria-label={t('email.templates.previewLabel', { name: template.name })}>
              {t('email.templates.preview')}
            </Link>
          </Button>
        </Flex>
        <Flex justify="between">
          <Text size="1" color="gray">
            {t('email.templates.usage', { usageCount: template.usageCount })}
          </Text>
          <Text size="1" color="gray">
            {t('email.templates.updatedAt', { date: formatDate(template.updatedAt) })}
          </Text>
        </Flex>
      </Flex>
    </Card>
  );
}

export function CampaignCard({ campaign }: { campaign: CampaignDto }) {
  const { t } = useTranslation();
  const total = campaign.totalRecipients ?? 0;
  const done = campaign.sentCount + campaign.failedCount;
  return (
    <RecordCard
      size="2"
      gap="2"
      testId="campaign-card"
      title={
        <LightHeading as="h3" size="3">
          {campaign.name}
        </LightHeading>
      }
      badge={<CampaignStatusBadge status={campaign.status} />}
    >
      <Text size="2">{t('email.campaigns.template', { name: campaign.templateName ?? '—' })}</Text>
      <Text size="2" color="gray">
        {t('email.campaigns.recipientsLabel', { label: t(`email.recipients.${campaign.recipients}`) })}
      </Text>
      <Text size="1" color="gray">
        {t('email.campaigns.createdAt', { date: formatDate(campaign.createdAt) })}
      </Text>
      {campaign.scheduledAt ? (
        <Text size="1" color="gray">
          {t('email.campaigns.scheduledFor')}: {formatDateTime(campaign.scheduledAt)}
        </Text>
      ) : null}
      {campaign.status === 'sending' && total > 0 ? (
        <Flex direction="column" gap="1">
          <Progress value={Math.min(100, (done * 100) / total)} aria-label={t('email.campaigns.progress', { done, total })} />
          <Text size="1" color="gray">
            {t('email.campaigns.progress', { done, total })}
          </Text>
        </Flex>
      ) : null}
      <Grid columns="3" gap="2">
        <Count label={t('email.campaigns.sent')} value={campaign.sentCount} testId="sent-count" />
        <Count label={t('email.campaigns.opened')} value={campaign.openCount} note={`${percent(share(campaign.openCount, campaign.sentCount))}%`} testId="open-count" />
        <Count label={t('email.campaigns.clicked')} value={campaign.clickCount} note={`${percent(share(campaign.clickCount, campaign.sentCount))}%`} testId="click-count" />
      </Grid>
    </RecordCard>
  );
}

function Count({ label, value, note, testId }: { label: string; value: number; note?: string; testId: string }) {
  return (
    <Flex direction="column" align="center">
      <Text size="4" weight="bold" data-testid={testId}>
        {value}
      </Text>
      <Text size="1" color="gray">
        {label}
        {note ? ` · ${note}` : ''}
      </Text>
    </Flex>
  );
}

export function LogRow({ log }: { log: EmailLogDto }) {
  const { t } = useTranslation();
  return (
    <RecordCard
      size="1"
      gap="1"
      testId="log-row"
      title={
        <LightText size="2" weight="medium">
          {log.subject}
        </LightText>
      }
      badge={<LogStatusBadge status={log.status} />}
    >
      <Text size="1" color="gray">
        {t('email.logs.recipient')}: {log.recipient}
        {log.templateName ? ` · ${t('email.logs.template')}: ${log.templateName}` : ''}
      </Text>
      <Text size="1" color="gray">
        {log.sentAt ? `${t('email.logs.sentAt')}: ${formatDateTime(log.sentAt)}` : ''}
        {log.openedAt ? ` · ${t('email.logs.openedAt')}: ${formatDateTime(log.openedAt)}` : ''}
      </Text>
      {log.errorMessage ? (
        <Text size="1" color="red" data-testid="log-error">
          {log.errorMessage}
        </Text>
      ) : null}
    </RecordCard>
  );
}
