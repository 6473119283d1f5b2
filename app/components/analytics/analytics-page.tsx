import { Button, Flex, Grid, Table, Text } from '@radix-ui/themes';
import { Link } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { TabBar } from '~/components/kit/tab-bar.tsx';
import type { Analytics, Concentration, ExposureRow } from '~/analytics/analytics.server.ts';
import { ANALYTICS_PERIODS, ANALYTICS_TABS, SERIES_BUCKET, type AnalyticsPeriod, type AnalyticsTab } from '~/analytics/periods.ts';
import { formatEur } from '~/utils/format.ts';
import { VolumeChart } from './volume-chart.tsx';
import { PageHeader } from '~/components/kit/page-header.tsx';
import { DataTable } from '~/components/kit/data-table.tsx';
import { FigureCard } from '~/components/kit/figure-card.tsx';
import { SectionCard } from '~/components/kit/section-card.tsx';
import type { AgeingPageData } from '~/analytics/ageing.server.ts';
import { AgeingSection } from './ageing-section.tsx';
import { DilutionCard } from '~/components/dilution/dilution-facts.tsx';

/** The page data: the figures (JSON-serialised) and the tab in the URL. */
export interface AnalyticsPageData {
  analytics: Analytics;
  tab: AnalyticsTab;
  /** The ageing tab's report and drill-down; null on the other tabs. */
  ageing: AgeingPageData | null;
}

const decimal = new Intl.NumberFormat('hr-HR', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
/** A calendar day YYYY-MM-DD as 'DD. MM. YYYY.' without time-zone shifts. */
const day = (value: string) => `${value.slice(8, 10)}. ${value.slice(5, 7)}. ${value.slice(0, 4)}.`;
const href = (period: AnalyticsPeriod, tab: AnalyticsTab) => `/analytics?period=${period}${tab === 'overview' ? '' : `&tab=${tab}`}`;

function Kpi({ label, value, raw, note, testId }: { label: string; value: string; raw: number | null; note: string; testId: string }) {
  return <FigureCard testId={testId} label={label} value={value} valueTestId={`${testId}-value`} dataValue={raw ?? ''} note={note} />;
}

function KpiCards({ data }: { data: Analytics }) {
  const { t } = useTranslation();
  const none = t('analytics.none');
  const percent = (value: number | null) => (value === null ? none : `${decimal.format(value)}%`);
  const feeShare = data.turnover === 0 ? null : Math.round((1000 * data.feeIncome) / data.turnover) / 10;
  return (
    <Grid columns={{ initial: '1', sm: '2', md: '3' }} gap="3">
      <Kpi
        testId="kpi-volume"
        label={t('analytics.cards.financingVolume')}
        value={formatEur(data.financingVolume)}
        raw={data.financingVolume}
        note={t('analytics.notes.financed', { count: data.financedCount })}
      />
      <Kpi
        testId="kpi-turnover"
        label={t('analytics.cards.turnover')}
        value={formatEur(data.turnover)}
        raw={data.turnover}
        note={t('analytics.notes.financed', { count: data.financedCount })}
      />
      <Kpi
        testId="kpi-fees"
        label={t('analytics.cards.feeIncome')}
        value={formatEur(data.feeIncome)}
        raw={data.feeIncome}
        note={t('analytics.notes.ofTurnover', { value: feeShare === null ? none : decimal.format(feeShare) })}
      />
      <Kpi
        testId="kpi-dso"
        label={t('analytics.cards.dso')}
        value={data.dso === null ? none : t('analytics.days', { value: decimal.format(data.dso) })}
        raw={data.dso}
        note={t('analytics.notes.paid', { count: data.paidCount })}
      />
      <Kpi
        testId="kpi-overdue"
        label={t('analytics.cards.overdueRate')}
        value={percent(data.overdueRate)}
        raw={data.overdueRate}
        note={t('analytics.notes.overdue', { amount: formatEur(data.overdueAmount), open: formatEur(data.openFinanced) })}
      />
      <Kpi
        testId="kpi-default"
        label={t('analytics.cards.defaultRate')}
        value={percent(data.defaultRate)}
        raw={data.defaultRate}
        note={t('analytics.notes.default', { amount: formatEur(data.defaultAmount) })}
      />
    </Grid>
  );
}

function ChartCard({ data }: { data: Analytics }) {
  const { t } = useTranslation();
  const unit = SERIES_BUCKET[data.period];
  return (
    <SectionCard
      title={
        <>
          {t('analytics.chart.title')} ({t(`analytics.chart.${unit}`)})
        </>
      }
    >
      <VolumeChart data={data.series} unit={unit} />
    </SectionCard>
  );
}

function RiskCard({ data }: { data: Analytics }) {
  const { t } = useTranslation();
  return (
    <SectionCard title={t('analytics.risk.title')} testId="analytics-risk">
      <DataTable
        size="1"
        columns={[t('analytics.risk.category'), { label: t('analytics.risk.clients'), justify: 'end' }, { label: t('analytics.risk.exposure'), justify: 'end' }]}
        items={data.riskDistribution}
        rowKey={(row) => row.category}
        rowProps={(row) => ({ 'data-testid': `risk-${row.category}` })}
        cells={(row) => (
          <>
            <Table.Cell>{t(`analytics.risk.${row.category}`)}</Table.Cell>
            <Table.Cell justify="end">{row.clients}</Table.Cell>
            <Table.Cell justify="end">{formatEur(row.exposure)}</Table.Cell>
          </>
        )}
      />
    </SectionCard>
  );
}

function ConcentrationCard({ data }: { data: Analytics }) {
  const { t } = useTranslation();
  const none = t('analytics.none');
  const rows: Array<[string, (value: Concentration) => string]> = [
    ['total', (value) => formatEur(value.total)],
    ['largestShare', (value) => (value.largestShare === null ? none : `${decimal.format(value.largestShare)}%`)],
    ['hhi', (value) => (value.hhi === null ? none : decimal.format(value.hhi))],
  ];
  return (
    <SectionCard title={t('analytics.concentration.title')} testId="analytics-concentration">
      <DataTable
        size="1"
        columns={['', { label: t('analytics.concentration.clients'), justify: 'end' }, { label: t('analytics.concentration.customers'), justify: 'end' }]}
        items={rows}
        rowKey={([key]) => key}
        cells={([key, show]) => (
          <>
            <Table.RowHeaderCell>{t(`analytics.concentration.${key}`)}</Table.RowHeaderCell>
            <Table.Cell justify="end">{show(data.concentration.clients)}</Table.Cell>
            <Table.Cell justify="end">{show(data.concentration.customers)}</Table.Cell>
          </>
        )}
      />
    </SectionCard>
  );
}

function TopList({ title, rows, link, testId }: { title: string; rows: ExposureRow[]; link: string; testId: string }) {
  const { t } = useTranslation();
  return (
    <SectionCard title={title} testId={testId}>
      <DataTable
        size="1"
        empty={t('analytics.top.empty')}
        columns={[
          t('analytics.top.name'),
          { label: t('analytics.top.invoices'), justify: 'end' },
          { label: t('analytics.top.exposure'), justify: 'end' },
          { label: t('analytics.top.share'), justify: 'end' },
        ]}
        items={rows}
        rowKey={(row) => row.id}
        cells={(row) => (
          <>
            <Table.Cell>
              <Link to={`${link}/${row.id}`}>{row.companyName}</Link>
            </Table.Cell>
            <Table.Cell justify="end">{row.invoices}</Table.Cell>
            <Table.Cell justify="end">{formatEur(row.exposure)}</Table.Cell>
            <Table.Cell justify="end">{decimal.format(row.share)}%</Table.Cell>
          </>
        )}
      />
    </SectionCard>
  );
}

function SeriesTable({ data }: { data: Analytics }) {
  const { t } = useTranslation();
  return (
    <SectionCard title={t('analytics.performance.title')} testId="analytics-series">
      <DataTable
        size="1"
        columns={[t('analytics.performance.start'), { label: t('analytics.performance.count'), justify: 'end' }, { label: t('analytics.performance.volume'), justify: 'end' }]}
        items={data.series}
        rowKey={(point) => point.start}
        cells={(point) => (
          <>
            <Table.Cell>{day(point.start)}</Table.Cell>
            <Table.Cell justify="end">{point.count}</Table.Cell>
            <Table.Cell justify="end">{formatEur(point.volume)}</Table.Cell>
          </>
        )}
      />
    </SectionCard>
  );
}

function FinancialCard({ data }: { data: Analytics }) {
  const { t } = useTranslation();
  const none = t('analytics.none');
  const share = (part: number) => (data.turnover === 0 ? none : `${decimal.format(Math.round((1000 * part) / data.turnover) / 10)}%`);
  const rows: Array<[string, string]> = [
    [t('analytics.cards.turnover'), formatEur(data.turnover)],
    [t('analytics.cards.financingVolume'), formatEur(data.financingVolume)],
    [t('analytics.financial.advanceRate'), share(data.financingVolume)],
    [t('analytics.cards.feeIncome'), formatEur(data.feeIncome)],
    [t('analytics.financial.feeYield'), share(data.feeIncome)],
    [t('analytics.financial.openFinanced'), formatEur(data.openFinanced)],
    [t('analytics.financial.overdueAmount'), formatEur(data.overdueAmount)],
    [t('analytics.financial.defaultAmount'), formatEur(data.defaultAmount)],
  ];
  return (
    <SectionCard title={t('analytics.financial.title')} testId="analytics-financial">
      <DataTable
        size="1"
        items={rows}
        rowKey={([label]) => label}
        cells={([label, value]) => (
          <>
            <Table.RowHeaderCell>{label}</Table.RowHeaderCell>
            <Table.Cell justify="end">{value}</Table.Cell>
          </>
        )}
      />
    </SectionCard>
  );
}

/** /analytics on real figures (docs/screens.md): period selector, export, KPI cards and the tabs (the ageing tab: ./ageing-section.tsx); every control is a link or a GET form. */
export function AnalyticsPage({ data: { analytics: data, tab, ageing } }: { data: AnalyticsPageData }) {
  const { t } = useTranslation();
  return (
    <Flex direction="column" gap="4">
      <PageHeader title={t('analytics.title')} subtitle={t('analytics.subtitle', { from: day(data.from), to: day(data.to) })} subtitleTestId="analytics-range">
        <Flex gap="2" align="center" wrap="wrap">
          <Flex gap="1" role="group" aria-label={t('analytics.periodLabel')}>
            {(Object.keys(ANALYTICS_PERIODS) as AnalyticsPeriod[]).map((key) => (
              <Button key={key} asChild size="1" variant={key === data.period ? 'solid' : 'soft'}>
                <Link to={href(key, tab)} preventScrollReset aria-current={key === data.period ? 'true' : undefined} data-testid={`period-${key}`}>
                  {t(`analytics.periods.${key}`)}
                </Link>
              </Button>
            ))}
          </Flex>
          {/* Plain download links, so both work without JavaScript. */}
          <Flex gap="1" role="group" aria-label={t('analytics.export')}>
            <Button asChild size="1" variant="outline">
              <a href={`/api/analytics/export.csv?period=${data.period}`} download data-testid="analytics-export">
                {t('analytics.exportCsv')}
              </a>
            </Button>
            <Button asChild size="1" variant="outline">
              <a href={`/api/analytics/export.xlsx?period=${data.period}`} download data-testid="analytics-export-xlsx">
                {t('analytics.exportXlsx')}
              </a>
            </Button>
          </Flex>
        </Flex>
      </PageHeader>

      <KpiCards data={data} />

      <TabBar label={t('analytics.title')} tabs={ANALYTICS_TABS} active={tab} hrefFor={(key) => href(data.period, key)} labelFor={(key) => t(`analytics.tabs.${key}`)} />

      {tab === 'overview' ? (
        <Grid columns={{ initial: '1', md: '2' }} gap="3">
          <ChartCard data={data} />
          <Flex direction="column" gap="3">
            <RiskCard data={data} />
            <ConcentrationCard data={data} />
            <DilutionCard dilution={data.dilution} />
          </Flex>
        </Grid>
      ) : null}
      {tab === 'performance' ? (
        <Grid columns={{ initial: '1', md: '2' }} gap="3">
          <ChartCard data={data} />
          <SeriesTable data={data} />
        </Grid>
      ) : null}
      {tab === 'risk' ? (
        <Grid columns={{ initial: '1', md: '2' }} gap="3">
          <RiskCard data={data} />
          <ConcentrationCard data={data} />
          <TopList title={t('analytics.top.clients')} rows={data.topClients} link="/clients" testId="top-clients" />
          <TopList title={t('analytics.top.customers')} rows={data.topCustomers} link="/customers" testId="top-customers" />
        </Grid>
      ) : null}
      {tab === 'financial' ? (
        <Grid columns={{ initial: '1', md: '2' }} gap="3">
          <FinancialCard data={data} />
          <TopList title={t('analytics.top.clients')} rows={data.topClients} link="/clients" testId="top-clients" />
        </Grid>
      ) : null}
      {tab === 'ageing' && ageing ? <AgeingSection data={ageing} /> : null}

      <Text size="1" color="gray">
        {t('analytics.definitions')}
      </Text>
    </Flex>
  );
}
