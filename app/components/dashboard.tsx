import { Box } from '@radix-ui/themes';
import { Link } from '@remix-run/react';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { loadDashboard, RecentActivity, Section } from '~/dashboard/dashboard.server.ts';
import { automaticAssessmentPercent, integrationDisplay, PERIODS, processingTimePercent, type Period } from '~/dashboard/display.ts';
import { formatDateTime, formatEur } from '~/utils/format.ts';
import { InvoiceChart } from './dashboard/invoice-chart.tsx';
import { ActivityLabel, INTEGRATION_COLORS, PRIORITY_COLORS, STATUS_COLORS } from './dashboard/labels.tsx';
import { BUSINESS_TIME_ZONE } from '~/utils/business-time.ts';
import { SectionCard } from '~/components/kit/section-card.tsx';
import { flexClass, LightBadge, LightBox, LightCard, LightGrid, LightHeading, LightText, LinkButton, Meter, Stack } from '~/components/kit/light.tsx';
import { AlertCallout } from '~/components/kit/callouts.tsx';

export type DashboardData = Awaited<ReturnType<typeof loadDashboard>>;

const percent = new Intl.NumberFormat('hr-HR', { maximumFractionDigits: 1 });
const signed = (value: number) => `${value > 0 ? '+' : ''}${percent.format(value)}`;

function useClock(): string {
  const { i18n } = useTranslation();
  const [now, setNow] = useState<Date | null>(null);
  useEffect(() => {
    setNow(new Date());
    const timer = window.setInterval(() => setNow(new Date()), 30_000);
    return () => window.clearInterval(timer);
  }, []);
  return now
    ? new Intl.DateTimeFormat(i18n.language === 'hr' ? 'hr-HR' : 'en-GB', {
        day: 'numeric',
        month: 'long',
        year: 'numeric',
        hour: '2-digit',
        minute: '2-digit',
        timeZone: BUSINESS_TIME_ZONE,
      }).format(now)
    : '';
}

// Rows that carry their record's id write their element themselves, with the class of the Flex they were (computed once).
const ROW = flexClass({ justify: 'between', align: 'center', gap: '3' });
const ACTIVITY_ROW = flexClass({ justify: 'between', align: 'center', gap: '3', py: '1' });
const TASK_ROW = flexClass({ justify: 'between', align: 'start', gap: '2' });
const ACTIVITY_BORDER = { borderBottom: '1px solid var(--gray-a3)' };
const NO_MIN_WIDTH = { minWidth: 0 };

function MetricCard({ label, value, raw, note, testId }: { label: string; value: string; raw: number; note: string; testId: string }) {
  return (
    <LightCard size="2" data-testid={testId}>
      <Stack direction="column" gap="1">
        <LightText size="2" color="gray">
          {label}
        </LightText>
        <LightText size="6" weight="bold" data-testid={`${testId}-value`} data-value={raw}>
          {value}
        </LightText>
        <LightText size="1" color="gray" data-testid={`${testId}-note`}>
          {note}
        </LightText>
      </Stack>
    </LightCard>
  );
}

function MetricCards({ metrics }: { metrics: DashboardData['metrics'] }) {
  const { t } = useTranslation();
  if (!metrics.ok) return <AlertCallout>{t('dashboard.metricsError')}</AlertCallout>;
  const { data } = metrics;
  const change = data.notes.availableForFinancingChange;
  const points = data.notes.automationSuccessChange;
  return (
    <LightGrid columns={{ initial: '1', sm: '2', lg: '4' }} gap="4">
      <MetricCard
        testId="metric-available"
        label={t('dashboard.cards.availableForFinancing')}
        value={formatEur(data.availableForFinancing, { decimals: 0 })}
        raw={data.availableForFinancing}
        note={change === null ? t('dashboard.notes.noComparison') : t('dashboard.notes.changeFromLastMonth', { value: signed(change) })}
      />
      <MetricCard
        testId="metric-active-clients"
        label={t('dashboard.cards.activeClients')}
        value={String(data.activeClients)}
        raw={data.activeClients}
        note={t('dashboard.notes.newThisMonth', { count: data.notes.newActiveClientsThisMonth })}
      />
      <MetricCard
        testId="metric-invoices-in-process"
        label={t('dashboard.cards.invoicesInProcess')}
        value={String(data.invoicesInProcess)}
        raw={data.invoicesInProcess}
        note={t('dashboard.notes.awaitingVerification', { count: data.notes.awaitingVerification })}
      />
      <MetricCard
        testId="metric-automation-success"
        label={t('dashboard.cards.automationSuccess')}
        value={`${percent.format(data.automationSuccess)}%`}
        raw={data.automationSuccess}
        note={points === null ? t('dashboard.notes.noComparison') : t('dashboard.notes.pointsFromLastMonth', { value: signed(points) })}
      />
    </LightGrid>
  );
}

function ChartCard({ metrics, period }: { metrics: DashboardData['metrics']; period: Period }) {
  const { t } = useTranslation();
  return (
    <LightCard size="2" data-testid="invoice-flow">
      <Stack justify="between" align="center" gap="3" wrap="wrap" mb="3">
        <LightHeading as="h3" size="4">
          {t('dashboard.chart.title')}
        </LightHeading>
        <Stack gap="1" role="group" aria-label={t('dashboard.chart.periods')}>
          {(Object.keys(PERIODS) as Period[]).map((key) => (
            <LinkButton
              key={key}
              to={`?period=${key}`}
              size="1"
              variant={key === period ? 'solid' : 'soft'}
              preventScrollReset
              aria-current={key === period ? 'true' : undefined}
              data-testid={`period-${key}`}
            >
              {key.toUpperCase()}
            </LinkButton>
          ))}
        </Stack>
      </Stack>
      {metrics.ok && metrics.data.historicalData.length ? <InvoiceChart data={metrics.data.historicalData} /> : <AlertCallout>{t('dashboard.dataError')}</AlertCallout>}
    </LightCard>
  );
}

/**
 * A card of one dashboard section under its heading: the error line when the
 * section could not be read (the other cards still show), the grey `empty`
 * line when `isEmpty`, else what `children` draws from its data.
 */
function SectionPanel<T>({
  title,
  testId,
  section,
  isEmpty,
  empty,
  children,
}: {
  title: string;
  testId: string;
  section: Section<T>;
  isEmpty?: (data: T) => boolean;
  empty?: string;
  children: (data: T) => ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <SectionCard level="h3" size="4" title={title} testId={testId}>
      {!section.ok ? <AlertCallout>{t('dashboard.dataError')}</AlertCallout> : isEmpty?.(section.data) ? <LightText color="gray">{empty}</LightText> : children(section.data)}
    </SectionCard>
  );
}

/** A figure beside its label, its bar under them, and an optional grey note. */
function MeterFigure({
  label,
  value,
  testId,
  meter,
  color,
  note,
  noteTestId,
}: {
  label: string;
  value: ReactNode;
  testId: string;
  meter: number;
  color?: 'amber' | 'green';
  note?: string;
  noteTestId?: string;
}) {
  return (
    <LightBox>
      <Stack justify="between">
        <LightText size="2">{label}</LightText>
        <LightText size="2" weight="bold" data-testid={testId}>
          {value}
        </LightText>
      </Stack>
      <Meter value={meter} mt="1" color={color} aria-label={label} />
      {note === undefined ? null : (
        <LightText size="1" color="gray" data-testid={noteTestId}>
          {note}
        </LightText>
      )}
    </LightBox>
  );
}

function RiskCard({ metrics }: { metrics: DashboardData['metrics'] }) {
  const { t } = useTranslation();
  return (
    <SectionPanel title={t('dashboard.risk.title')} testId="risk-card" section={metrics}>
      {(data) => {
        const risk = data.riskStats;
        const automatic = automaticAssessmentPercent(risk);
        return (
          <Stack direction="column" gap="3">
            <MeterFigure label={t('dashboard.risk.automatic')} value={<>{automatic}%</>} testId="risk-automatic" meter={automatic} />
            {(['low', 'medium', 'high'] as const).map((category) => (
              <Stack key={category} justify="between" align="center">
                <LightBadge color={category === 'low' ? 'green' : category === 'medium' ? 'amber' : 'red'}>{t(`dashboard.risk.${category}`)}</LightBadge>
                <LightText weight="bold" data-testid={`risk-${category}`}>
                  {risk[category]}
                </LightText>
              </Stack>
            ))}
          </Stack>
        );
      }}
    </SectionPanel>
  );
}

function IntegrationsCard({ integrations }: { integrations: DashboardData['integrations'] }) {
  const { t } = useTranslation();
  return (
    <SectionPanel
      title={t('dashboard.integrations.title')}
      testId="integration-card"
      section={integrations}
      isEmpty={(data) => !data.length}
      empty={t('dashboard.integrations.empty')}
    >
      {(data) => (
        <Stack direction="column" gap="2">
          {data.map((integration) => {
            const key = integrationDisplay(integration.status);
            return (
              <div key={integration.id} data-integration-type={integration.type} className={ROW}>
                <LightBox>
                  <LightText as="div" size="2" weight="medium">
                    {integration.name}
                  </LightText>
                  <LightText as="div" size="1" color="gray">
                    {integration.lastCheck ? t('dashboard.integrations.lastCheck', { time: formatDateTime(integration.lastCheck) }) : t('dashboard.integrations.neverChecked')}
                    {integration.errorCount ? ` · ${t('dashboard.integrations.errors', { count: integration.errorCount })}` : ''}
                  </LightText>
                </LightBox>
                <LightBadge color={INTEGRATION_COLORS[key]} data-testid="integration-status" title={integration.lastError ?? undefined}>
                  {t(`dashboard.integrations.status.${key}`)}
                </LightBadge>
              </div>
            );
          })}
        </Stack>
      )}
    </SectionPanel>
  );
}

function WorkflowsCard({ workflows }: { workflows: DashboardData['workflows'] }) {
  const { t } = useTranslation();
  return (
    <SectionPanel title={t('dashboard.workflows.title')} testId="workflow-card" section={workflows} isEmpty={(data) => !data.totalWorkflows} empty={t('dashboard.workflows.empty')}>
      {(data) => {
        const activeShare = Math.round((100 * data.activeWorkflows) / data.totalWorkflows);
        return (
          <Stack direction="column" gap="3">
            <MeterFigure
              label={t('dashboard.workflows.total')}
              value={data.totalWorkflows}
              testId="workflows-total"
              meter={Math.min(100, data.completionRate)}
              note={t('dashboard.workflows.completionRate', { value: percent.format(data.completionRate) })}
              noteTestId="workflows-completion"
            />
            <MeterFigure
              label={t('dashboard.workflows.active')}
              value={data.activeWorkflows}
              testId="workflows-active"
              meter={activeShare}
              color="amber"
              note={t('dashboard.workflows.activeShare', { value: activeShare })}
            />
            <MeterFigure
              label={t('dashboard.workflows.processingTime')}
              value={t('dashboard.workflows.minutes', { value: percent.format(data.averageProcessingTime) })}
              testId="workflows-time"
              meter={processingTimePercent(data.averageProcessingTime)}
              color="green"
            />
          </Stack>
        );
      }}
    </SectionPanel>
  );
}

function ActivityRow({ activity }: { activity: RecentActivity }) {
  const { t } = useTranslation();
  return (
    <div data-activity-id={activity.id} style={ACTIVITY_BORDER} className={ACTIVITY_ROW}>
      <LightBox>
        <LightText as="div" size="2" weight="medium">
          <ActivityLabel action={activity.action} entityType={activity.entityType} />
        </LightText>
        <LightText as="div" size="1" color="gray">
          {activity.userName ?? t('dashboard.activities.system')} · {formatDateTime(activity.createdAt)}
        </LightText>
      </LightBox>
      <LightBadge color={STATUS_COLORS[activity.status]} data-testid="activity-status">
        {t(`dashboard.activities.status.${activity.status}`)}
      </LightBadge>
    </div>
  );
}

function ActivitiesCard({ activities }: { activities: DashboardData['activities'] }) {
  const { t } = useTranslation();
  return (
    <SectionPanel title={t('dashboard.activities.title')} testId="activities-card" section={activities} isEmpty={(data) => !data.length} empty={t('dashboard.activities.empty')}>
      {(data) => (
        <Stack direction="column">
          {data.map((activity) => (
            <ActivityRow key={activity.id} activity={activity} />
          ))}
        </Stack>
      )}
    </SectionPanel>
  );
}

function TasksCard({ tasks }: { tasks: DashboardData['tasks'] }) {
  const { t } = useTranslation();
  return (
    <LightCard size="2" data-testid="my-tasks">
      <Stack justify="between" align="center" mb="3">
        <LightHeading as="h3" size="4">
          {t('dashboard.tasks.title')}
        </LightHeading>
        {tasks.ok ? (
          <LightBadge radius="full" data-testid="my-tasks-count">
            {tasks.data.total}
          </LightBadge>
        ) : null}
      </Stack>
      {!tasks.ok ? (
        <AlertCallout>{t('dashboard.dataError')}</AlertCallout>
      ) : tasks.data.tasks.length ? (
        <Stack direction="column" gap="2">
          {tasks.data.tasks.map((task) => (
            <div key={task.id} data-task-id={task.id} className={TASK_ROW}>
              <LightBox style={NO_MIN_WIDTH}>
                <LightText as="div" size="2" weight="medium">
                  <Link to={`/tasks?task=${task.id}`}>{task.title}</Link>
                </LightText>
                {task.description ? (
                  <LightText as="div" size="1" color="gray" truncate>
                    {task.description}
                  </LightText>
                ) : null}
              </LightBox>
              <LightBadge color={PRIORITY_COLORS[task.priority] ?? 'gray'} data-testid="task-priority">
                {t(`dashboard.tasks.priority.${task.priority}`)}
              </LightBadge>
            </div>
          ))}
          <Link to="/tasks?assignee=me">{t('dashboard.tasks.all')}</Link>
        </Stack>
      ) : (
        <LightText color="gray">{t('dashboard.tasks.empty')}</LightText>
      )}
    </LightCard>
  );
}

/** Dashboard (docs/screens.md): header with the clock, four cards, then three rows of two. */
export function Dashboard({ user, data }: { user: { firstName: string; lastName: string }; data: DashboardData }) {
  const { t } = useTranslation();
  const clock = useClock();
  return (
    <Stack direction="column" gap="4">
      <LightBox>
        <LightHeading as="h2" size="6">
          {t('dashboard.title')}
        </LightHeading>
        <LightText as="p" color="gray">
          {t('dashboard.welcome', { name: `${user.firstName} ${user.lastName}`.trim() })}
        </LightText>
        <LightText as="p" color="gray" data-testid="dashboard-clock" suppressHydrationWarning>
          {clock}
        </LightText>
      </LightBox>
      <MetricCards metrics={data.metrics} />
      <LightGrid columns={{ initial: '1', md: '3' }} gap="4">
        <Box gridColumn={{ md: 'span 2' }}>
          <ChartCard metrics={data.metrics} period={data.period} />
        </Box>
        <RiskCard metrics={data.metrics} />
      </LightGrid>
      <LightGrid columns={{ initial: '1', md: '2' }} gap="4">
        <IntegrationsCard integrations={data.integrations} />
        <WorkflowsCard workflows={data.workflows} />
      </LightGrid>
      <LightGrid columns={{ initial: '1', md: '3' }} gap="4">
        <Box gridColumn={{ md: 'span 2' }}>
          <ActivitiesCard activities={data.activities} />
        </Box>
        <TasksCard tasks={data.tasks} />
      </LightGrid>
    </Stack>
  );
}
