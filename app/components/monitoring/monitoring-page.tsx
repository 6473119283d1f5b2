import { ReloadIcon } from '@radix-ui/react-icons';
import { Badge, Box, Button, Card, Flex, Grid, Heading, Table, Text, TextField } from '@radix-ui/themes';
import { Form, Link, useLocation, useRevalidator } from '@remix-run/react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { TabBar } from '~/components/kit/tab-bar.tsx';
import { integrationDisplay } from '~/dashboard/display.ts';
import type { loadMonitoring, MonitoringTab } from '~/monitoring/page.server.ts';
import { formatDateTime } from '~/utils/format.ts';
import { ActivityLabel, INTEGRATION_COLORS, STATUS_COLORS } from '../dashboard/labels.tsx';
import { activityStatus } from '~/dashboard/display.ts';
import { Pager } from '~/components/kit/pager.tsx';
import { SectionCard } from '~/components/kit/section-card.tsx';
import { Options } from '~/components/kit/fields.tsx';
import { DataTable } from '~/components/kit/data-table.tsx';
import { AlertCallout } from '~/components/kit/callouts.tsx';

export type MonitoringData = Awaited<ReturnType<typeof loadMonitoring>>;
type Status = MonitoringData['status'];

const REFRESH_MS = 30_000;
const number = new Intl.NumberFormat('hr-HR', { maximumFractionDigits: 2 });

function monitoringHref(data: MonitoringData, changes: Record<string, string | number | null>): string {
  const search = new URLSearchParams();
  const state: Record<string, string | number | null> = { tab: data.tab === 'system' ? null : data.tab, ...data.filters, page: data.page > 1 ? data.page : null, ...changes };
  for (const [key, value] of Object.entries(state)) if (value !== null && value !== '') search.set(key, String(value));
  const text = search.toString();
  return text ? `/monitoring?${text}` : '/monitoring';
}

/** Re-reads the page every 30 s while it is visible (docs/screens.md), and on the refresh button. */
function useAutoRefresh() {
  const revalidator = useRevalidator();
  useEffect(() => {
    const timer = window.setInterval(() => {
      if (document.visibilityState === 'visible' && revalidator.state === 'idle') revalidator.revalidate();
    }, REFRESH_MS);
    return () => window.clearInterval(timer);
  }, [revalidator]);
  return revalidator;
}

function Counter({ label, value, testId, color }: { label: string; value: string; testId: string; color?: 'red' | 'green' }) {
  return (
    <Card size="2" data-testid={testId}>
      <Text as="div" size="2" color="gray">
        {label}
      </Text>
      <Text as="div" size="6" weight="bold" color={color} data-testid={`${testId}-value`}>
        {value}
      </Text>
    </Card>
  );
}

function IntegrationBadge({ status }: { status: string }) {
  const { t } = useTranslation();
  const key = integrationDisplay(status);
  return (
    <Badge color={INTEGRATION_COLORS[key]} data-testid="integration-status">
      {t(`dashboard.integrations.status.${key}`)}
    </Badge>
  );
}

function IntegrationTable({ status }: { status: Status }) {
  const { t } = useTranslation();
  if (!status.integrations.length) return <Text color="gray">{t('dashboard.integrations.empty')}</Text>;
  return (
    <DataTable
      size="1"
      data-testid="integration-health"
      columns={[
        t('dashboard.monitoring.integrations.name'),
        t('dashboard.monitoring.integrations.status'),
        t('dashboard.monitoring.integrations.lastCheck'),
        { label: t('dashboard.monitoring.integrations.errorCount'), justify: 'end' },
        t('dashboard.monitoring.integrations.lastError'),
      ]}
      items={status.integrations}
      rowKey={(integration) => integration.id}
      rowProps={(integration) => ({ 'data-integration-type': integration.type })}
      cells={(integration) => (
        <>
          <Table.RowHeaderCell>{integration.name}</Table.RowHeaderCell>
          <Table.Cell>
            <IntegrationBadge status={integration.status} />
          </Table.Cell>
          <Table.Cell>{integration.lastCheck ? formatDateTime(integration.lastCheck) : t('dashboard.integrations.neverChecked')}</Table.Cell>
          <Table.Cell justify="end">{integration.errorCount}</Table.Cell>
          <Table.Cell>{integration.lastError ?? '—'}</Table.Cell>
        </>
      )}
    />
  );
}

function SystemTab({ status }: { status: Status }) {
  const { t } = useTranslation();
  return (
    <Flex direction="column" gap="4">
      <Grid columns={{ initial: '1', md: '2' }} gap="4">
        <Card size="2" data-testid="database-status">
          <Flex justify="between" align="center" mb="2">
            <Heading as="h3" size="3">
              {t('dashboard.monitoring.database.title')}
            </Heading>
            <Badge color={status.database.connected ? 'green' : 'red'}>
              {t(status.database.connected ? 'dashboard.monitoring.database.connected' : 'dashboard.monitoring.database.disconnected')}
            </Badge>
          </Flex>
          {status.database.latencyMs !== null ? (
            <Text size="2" data-testid="database-latency">
              {t('dashboard.monitoring.database.latency', { value: number.format(status.database.latencyMs) })}
            </Text>
          ) : null}
        </Card>
        <Card size="2" data-testid="worker-card">
          <Flex justify="between" align="center" mb="2">
            <Heading as="h3" size="3">
              {t('dashboard.monitoring.worker.title')}
            </Heading>
            <Badge color={status.workerRunning ? 'green' : 'red'} data-testid="worker-status">
              {t(status.workerRunning ? 'dashboard.monitoring.worker.running' : 'dashboard.monitoring.worker.stopped')}
            </Badge>
          </Flex>
          {status.workers.length ? (
            status.workers.map((worker) => (
              <Text as="div" size="2" key={worker.workerId} color={worker.running ? undefined : 'gray'}>
                {t('dashboard.monitoring.worker.host', { hostname: worker.hostname, pid: worker.pid })} ·{' '}
                {t('dashboard.monitoring.worker.lastBeat', { time: formatDateTime(worker.lastBeatAt) })}
              </Text>
            ))
          ) : (
            <Text size="2" color="gray">
              {t('dashboard.monitoring.worker.none')}
            </Text>
          )}
        </Card>
      </Grid>
      <SectionCard level="h3" title={t('dashboard.monitoring.queues.title')}>
        {status.queuesAvailable ? null : (
          <Text as="p" size="2" color="gray" mb="2">
            {t('dashboard.monitoring.queues.unavailable')}
          </Text>
        )}
        <DataTable
          size="1"
          data-testid="queue-table"
          columns={[
            t('dashboard.monitoring.queues.name'),
            { label: t('dashboard.monitoring.queues.created'), justify: 'end' },
            { label: t('dashboard.monitoring.queues.retry'), justify: 'end' },
            { label: t('dashboard.monitoring.queues.active'), justify: 'end' },
            { label: t('dashboard.monitoring.queues.failed'), justify: 'end' },
          ]}
          items={status.queues}
          rowKey={(queue) => queue.name}
          rowProps={(queue) => ({ 'data-queue': queue.name })}
          cells={(queue) => (
            <>
              <Table.RowHeaderCell>{queue.name}</Table.RowHeaderCell>
              <Table.Cell justify="end">{queue.created}</Table.Cell>
              <Table.Cell justify="end">{queue.retry}</Table.Cell>
              <Table.Cell justify="end">{queue.active}</Table.Cell>
              <Table.Cell justify="end">
                <Text color={queue.failed24h ? 'red' : undefined}>{queue.failed24h}</Text>
              </Table.Cell>
            </>
          )}
        />
      </SectionCard>
      <SectionCard level="h3" title={t('dashboard.monitoring.failedJobs.title')} testId="failed-jobs">
        {status.recentFailedJobs.length ? (
          <Flex direction="column" gap="1">
            {status.recentFailedJobs.map((job) => (
              <Text as="div" size="2" key={job.id}>
                <Badge color="red" mr="2">
                  {job.name}
                </Badge>
                {formatDateTime(job.failedAt)} · {job.error ?? '—'}
              </Text>
            ))}
          </Flex>
        ) : (
          <Text size="2" color="gray">
            {t('dashboard.monitoring.failedJobs.empty')}
          </Text>
        )}
      </SectionCard>
      <SectionCard level="h3" title={t('dashboard.monitoring.integrations.title')}>
        <Flex direction="column" gap="2">
          {status.integrations.length ? (
            status.integrations.map((integration) => (
              <Flex key={integration.id} justify="between" align="center">
                <Text size="2">{integration.name}</Text>
                <IntegrationBadge status={integration.status} />
              </Flex>
            ))
          ) : (
            <Text color="gray">{t('dashboard.integrations.empty')}</Text>
          )}
        </Flex>
      </SectionCard>
    </Flex>
  );
}

function LogsTab({ data }: { data: MonitoringData }) {
  const { t } = useTranslation();
  const choices = data.choices ?? { users: [], actions: [], entityTypes: [] };
  const select = (name: 'userId' | 'action' | 'entityType', options: { value: string; label: string }[]) => (
    <label>
      <Text as="div" size="1" color="gray">
        {t(`dashboard.monitoring.logs.${name === 'userId' ? 'user' : name}`)}
      </Text>
      <select name={name} defaultValue={data.filters[name]} key={`${name}-${data.filters[name]}`} className="native-select">
        <option value="">{t('dashboard.monitoring.logs.all')}</option>
        <Options items={options} value={(option) => option.value} label={(option) => option.label} />
      </select>
    </label>
  );
  return (
    <Flex direction="column" gap="3">
      <Form method="get" action="/monitoring" aria-label={t('dashboard.monitoring.tabs.logs')} data-testid="log-filters">
        <input type="hidden" name="tab" value="logs" />
        <Flex gap="3" align="end" wrap="wrap">
          {select(
            'userId',
            choices.users.map((user) => ({ value: user.id, label: user.name })),
          )}
          {select(
            'action',
            choices.actions.map((action) => ({ value: action, label: action })),
          )}
          {select(
            'entityType',
            choices.entityTypes.map((type) => ({ value: type, label: type })),
          )}
          {(['from', 'to'] as const).map((name) => (
            <label key={name}>
              <Text as="div" size="1" color="gray">
                {t(`dashboard.monitoring.logs.${name}`)}
              </Text>
              <TextField.Root type="date" name={name} defaultValue={data.filters[name]} key={`${name}-${data.filters[name]}`} />
            </label>
          ))}
          <Button type="submit" variant="soft">
            {t('dashboard.monitoring.logs.apply')}
          </Button>
          <Button asChild variant="ghost">
            <Link to="/monitoring?tab=logs">{t('dashboard.monitoring.logs.reset')}</Link>
          </Button>
        </Flex>
      </Form>
      {data.invalidFilter ? <AlertCallout>{t('dashboard.monitoring.logs.invalidFilter')}</AlertCallout> : null}
      {data.logs ? (
        <>
          <Text size="2" color="gray" data-testid="log-total">
            {t('dashboard.monitoring.logs.total', { count: data.logs.total })}
          </Text>
          {data.logs.logs.length ? (
            <DataTable
              size="1"
              data-testid="log-table"
              columns={[
                t('dashboard.monitoring.logs.time'),
                t('dashboard.monitoring.logs.user'),
                t('dashboard.monitoring.logs.action'),
                t('dashboard.monitoring.logs.entity'),
                t('dashboard.monitoring.logs.ip'),
              ]}
              items={data.logs.logs}
              rowKey={(log) => log.id}
              rowProps={(log) => ({ 'data-log-id': log.id })}
              cells={(log) => (
                <>
                  <Table.Cell>{formatDateTime(log.createdAt)}</Table.Cell>
                  <Table.Cell>{log.userName ?? t('dashboard.activities.system')}</Table.Cell>
                  <Table.Cell>
                    <Badge color={STATUS_COLORS[activityStatus(log.action)]} mr="2">
                      {log.action}
                    </Badge>
                    <ActivityLabel action={log.action} />
                  </Table.Cell>
                  <Table.Cell>{log.entityType ?? '—'}</Table.Cell>
                  <Table.Cell>{log.ipAddress ?? '—'}</Table.Cell>
                </>
              )}
            />
          ) : (
            <Text color="gray">{t('dashboard.monitoring.logs.empty')}</Text>
          )}
          <Pager page={data.page} pages={data.pages} hrefFor={(page) => monitoringHref(data, { page })} />
        </>
      ) : null}
    </Flex>
  );
}

/** /monitoring (docs/screens.md): health badge, refresh, four counters, tabs system status / integrations / activity logs. */
export function MonitoringPage({ data }: { data: MonitoringData }) {
  const { t } = useTranslation();
  const location = useLocation();
  const revalidator = useAutoRefresh();
  const { status } = data;
  const tabs: MonitoringTab[] = ['system', 'integrations', 'logs'];
  return (
    <Flex direction="column" gap="4">
      <Flex justify="between" align="center" gap="3" wrap="wrap">
        <Flex align="center" gap="3">
          <Heading as="h2" size="6">
            {t('dashboard.monitoring.title')}
          </Heading>
          <Badge size="2" color={status.healthy ? 'green' : 'red'} data-testid="health-badge">
            {t(status.healthy ? 'dashboard.monitoring.healthy' : 'dashboard.monitoring.degraded')}
          </Badge>
        </Flex>
        <Flex align="center" gap="3">
          <Text size="1" color="gray" data-testid="checked-at">
            {t('dashboard.monitoring.checkedAt', { time: formatDateTime(status.checkedAt) })}
          </Text>
          <Button asChild variant="soft" disabled={revalidator.state === 'loading'}>
            <Link
              to={`${location.pathname}${location.search}`}
              onClick={(event) => {
                event.preventDefault();
                revalidator.revalidate();
              }}
              data-testid="refresh"
            >
              <ReloadIcon /> {t('dashboard.monitoring.refresh')}
            </Link>
          </Button>
        </Flex>
      </Flex>
      <Grid columns={{ initial: '2', md: '4' }} gap="4">
        <Counter testId="counter-health" label={t('dashboard.monitoring.summary.health')} value={`${status.healthPercent}%`} color={status.healthy ? 'green' : 'red'} />
        <Counter
          testId="counter-integrations"
          label={t('dashboard.monitoring.summary.activeIntegrations')}
          value={`${status.summary.activeIntegrations}/${status.integrations.length}`}
        />
        <Counter testId="counter-queued" label={t('dashboard.monitoring.summary.queuedJobs')} value={String(status.summary.queuedJobs)} />
        <Counter
          testId="counter-failed"
          label={t('dashboard.monitoring.summary.failedJobs')}
          value={String(status.summary.failedJobs24h)}
          color={status.summary.failedJobs24h ? 'red' : undefined}
        />
      </Grid>
      <TabBar
        label={t('dashboard.monitoring.title')}
        tabs={tabs}
        active={data.tab}
        hrefFor={(tab) => (tab === 'system' ? '/monitoring' : `/monitoring?tab=${tab}`)}
        labelFor={(tab) => t(`dashboard.monitoring.tabs.${tab}`)}
      />
      <Box>
        {data.tab === 'system' ? <SystemTab status={status} /> : null}
        {data.tab === 'integrations' ? <IntegrationTable status={status} /> : null}
        {data.tab === 'logs' ? <LogsTab data={data} /> : null}
      </Box>
    </Flex>
  );
}
