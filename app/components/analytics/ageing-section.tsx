import { Button, Card, Flex, Link as RadixLink, Table, Text, TextField } from '@radix-ui/themes';
import { Form, Link } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import type { AgeingAmounts, AgeingInvoices, AgeingPageData, AgeingReport } from '~/analytics/ageing.server.ts';
import { AGEING_BUCKETS, AGEING_BY, AGEING_PAGE_SIZE, type AgeingBucket, type AgeingBy } from '~/analytics/ageing.ts';
import { useRefusalText } from '~/components/refusal-text.ts';
import { Pager } from '~/components/kit/pager.tsx';
import { PanelHeader } from '~/components/kit/panel-header.tsx';
import { SectionCard } from '~/components/kit/section-card.tsx';
import { TableHead } from '~/components/kit/table-head.tsx';
import { formatDate, formatEur } from '~/utils/format.ts';
import { pageCount } from '~/utils/list-url.ts';
import { AlertCallout } from '~/components/kit/callouts.tsx';

/** What the ageing tab's URL holds (docs/screens.md): every link and the form carry it, so it works without JavaScript. */
interface AgeingState {
  asOf: string;
  by: AgeingBy;
  party?: string | null;
  bucket?: AgeingBucket | null;
  page?: number;
  ipage?: number;
}

function ageingHref(state: AgeingState): string {
  const params = new URLSearchParams({ tab: 'ageing' });
  if (state.asOf) params.set('asOf', state.asOf);
  params.set('by', state.by);
  if (state.party) params.set('party', state.party);
  if (state.bucket) params.set('bucket', state.bucket);
  if (state.page && state.page > 1) params.set('page', String(state.page));
  if (state.ipage && state.ipage > 1) params.set('ipage', String(state.ipage));
  return `/analytics?${params}`;
}

function AgeingControls({ data }: { data: AgeingPageData }) {
  const { t } = useTranslation();
  const asOf = data.report?.asOf ?? data.asOfInput;
  return (
    <Flex justify="between" align="end" gap="3" wrap="wrap">
      <Form method="get" action="/analytics" data-testid="ageing-form">
        <input type="hidden" name="tab" value="ageing" />
        <input type="hidden" name="by" value={data.by} />
        <Flex gap="2" align="end">
          <label>
            <Text as="div" size="2" weight="medium">
              {t('analytics.ageing.asOf')}
            </Text>
            <TextField.Root type="date" name="asOf" defaultValue={asOf} key={asOf} data-testid="ageing-as-of" aria-invalid={data.error ? true : undefined} />
          </label>
          <Button type="submit" variant="soft">
            {t('analytics.ageing.show')}
          </Button>
        </Flex>
      </Form>
      <Flex gap="2" align="center" wrap="wrap">
        <Flex gap="1" role="group" aria-label={t('analytics.ageing.byLabel')}>
          {AGEING_BY.map((by) => (
            <Button key={by} asChild size="1" variant={by === data.by ? 'solid' : 'soft'}>
              <Link to={ageingHref({ asOf: data.asOfInput, by })} preventScrollReset aria-current={by === data.by ? 'true' : undefined} data-testid={`ageing-by-${by}`}>
                {t(`analytics.ageing.by.${by}`)}
              </Link>
            </Button>
          ))}
        </Flex>
        {data.report ? (
          // Plain download links, so both work without JavaScript.
          <Flex gap="1" role="group" aria-label={t('analytics.ageing.export')}>
            {(['csv', 'xlsx'] as const).map((format) => (
              <Button key={format} asChild size="1" variant="outline">
                <a href={`/api/analytics/ageing/export.${format}?asOf=${data.report!.asOf}&by=${data.by}`} download data-testid={`ageing-export-${format}`}>
                  {t(format === 'csv' ? 'analytics.exportCsv' : 'analytics.exportXlsx')}
                </a>
              </Button>
            ))}
          </Flex>
        ) : null}
      </Flex>
    </Flex>
  );
}

/** One amount of the report: a link to its invoices when there are any. */
function AmountCell({ amount, href, label, testId }: { amount: number; href: string; label: string; testId: string }) {
  return (
    <Table.Cell justify="end" data-testid={testId} data-value={amount}>
      {amount === 0 ? (
        <Text color="gray">{formatEur(0)}</Text>
      ) : (
        <RadixLink asChild underline="always">
          <Link to={href} preventScrollReset aria-label={label}>
            {formatEur(amount)}
          </Link>
        </RadixLink>
      )}
    </Table.Cell>
  );
}

function ReportTable({ report, state }: { report: AgeingReport; state: AgeingState }) {
  const { t } = useTranslation();
  const partyLink = report.by === 'client' ? '/clients' : '/customers';
  const amountColumns = [...AGEING_BUCKETS.map((bucket) => t(`analytics.ageing.buckets.${bucket}`)), t('analytics.ageing.total')];
  const cells = (amounts: AgeingAmounts, party: { id: string; name: string } | null, testId: string) =>
    [...AGEING_BUCKETS, null].map((bucket) => {
      const amount = bucket ? amounts[bucket] : amounts.total;
      const bucketLabel = bucket ? t(`analytics.ageing.buckets.${bucket}`) : t('analytics.ageing.total');
      const key = bucket ?? 'total';
      if (!party) {
        return (
          <Table.Cell key={key} justify="end" data-testid={`${testId}-${key}`} data-value={amount}>
            <Text weight="bold">{formatEur(amount)}</Text>
          </Table.Cell>
        );
      }
      return (
        <AmountCell
          key={key}
          amount={amount}
          href={ageingHref({ ...state, party: party.id, bucket, ipage: 1 })}
          label={t('analytics.ageing.cellLabel', { party: party.name, bucket: bucketLabel, amount: formatEur(amount) })}
          testId={`${testId}-${key}`}
        />
      );
    });
  return (
    <Table.Root size="1" data-testid="ageing-table">
      <TableHead
        columns={[
          t(`analytics.ageing.party.${report.by}`),
          ...amountColumns.map((label) => ({ label, justify: 'end' as const })),
          { label: t('analytics.ageing.invoices'), justify: 'end' },
        ]}
      />
      <Table.Body>
        {report.rows.map((row) => (
          <Table.Row key={row.id} data-testid="ageing-row" data-party={row.id}>
            <Table.RowHeaderCell>
              <RadixLink asChild underline="always">
                <Link to={`${partyLink}/${row.id}`}>{row.name}</Link>
              </RadixLink>
            </Table.RowHeaderCell>
            {cells(row, row, `ageing-${row.id}`)}
            <Table.Cell justify="end">{row.invoices}</Table.Cell>
          </Table.Row>
        ))}
        <Table.Row data-testid="ageing-totals">
          <Table.RowHeaderCell>
            <Text weight="bold">{t('analytics.ageing.totalRow')}</Text>
          </Table.RowHeaderCell>
          {cells(report.totals, null, 'ageing-totals')}
          <Table.Cell justify="end" data-testid="ageing-totals-invoices">
            <Text weight="bold">{report.totals.invoices}</Text>
          </Table.Cell>
        </Table.Row>
      </Table.Body>
    </Table.Root>
  );
}

function DrillDown({ drill, state }: { drill: AgeingInvoices; state: AgeingState }) {
  const { t } = useTranslation();
  const bucketLabel = drill.bucket ? t(`analytics.ageing.buckets.${drill.bucket}`) : t('analytics.ageing.drill.allBuckets');
  return (
    <Card size="2" data-testid="ageing-drill">
      <PanelHeader
        title={`${drill.party.name} · ${bucketLabel}`}
        closeHref={ageingHref({ ...state, party: null, bucket: null, ipage: 1 })}
        closeLabel={t('analytics.ageing.drill.close')}
      />
      <Text as="p" size="2" color="gray" mb="2" data-testid="ageing-drill-summary">
        {t('analytics.ageing.drill.summary', { count: drill.total, amount: formatEur(drill.openTotal), asOf: formatDate(drill.asOf) })}
      </Text>
      {drill.items.length === 0 ? (
        <Text color="gray">{t('analytics.ageing.drill.empty')}</Text>
      ) : (
        <Table.Root size="1">
          <TableHead
            columns={[
              t('analytics.ageing.drill.number'),
              t('analytics.ageing.drill.client'),
              t('analytics.ageing.drill.customer'),
              t('analytics.ageing.drill.dueDate'),
              { label: t('analytics.ageing.drill.daysPastDue'), justify: 'end' },
              { label: t('analytics.ageing.drill.openAmount'), justify: 'end' },
            ]}
          />
          <Table.Body>
            {drill.items.map((item) => (
              <Table.Row key={item.id} data-testid="ageing-invoice">
                <Table.RowHeaderCell>
                  <RadixLink asChild underline="always">
                    <Link to={`/invoices/${item.id}`}>{item.invoiceNumber}</Link>
                  </RadixLink>
                </Table.RowHeaderCell>
                <Table.Cell>{item.clientName}</Table.Cell>
                <Table.Cell>{item.customerName}</Table.Cell>
                <Table.Cell>{formatDate(item.dueDate)}</Table.Cell>
                <Table.Cell justify="end">{item.daysPastDue}</Table.Cell>
                <Table.Cell justify="end" data-value={item.openAmount}>
                  {formatEur(item.openAmount)}
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      )}
      <Pager
        page={state.ipage ?? 1}
        pages={pageCount(drill.total, AGEING_PAGE_SIZE)}
        hrefFor={(ipage) => ageingHref({ ...state, ipage })}
        label={t('analytics.ageing.drill.pages')}
        testId="ageing-drill-pager"
      />
    </Card>
  );
}

/** The ageing tab of /analytics (docs/screens.md): the as-of day, by client or customer, the report with its totals, the drill-down, the exports. */
export function AgeingSection({ data }: { data: AgeingPageData }) {
  const { t } = useTranslation();
  const refusal = useRefusalText();
  const report = data.report;
  const state: AgeingState = { asOf: data.asOfInput, by: data.by, party: data.drill?.party.id, bucket: data.bucket, page: data.page, ipage: data.drillPage };
  return (
    <SectionCard title={t('analytics.ageing.title')} testId="analytics-ageing">
      <Flex direction="column" gap="3">
        <Text size="2" color="gray">
          {t('analytics.ageing.intro')}
        </Text>
        <AgeingControls data={data} />
        {data.error ? <AlertCallout testId="ageing-error">{refusal(data.error)}</AlertCallout> : null}
        {data.drill ? <DrillDown drill={data.drill} state={state} /> : null}
        {report ? (
          <>
            <Text size="2" color="gray" data-testid="ageing-count">
              {formatDate(report.asOf)} · {t('analytics.ageing.rows', { count: report.count })}
            </Text>
            {report.count === 0 ? (
              <Text data-testid="ageing-empty">{t('analytics.ageing.empty', { asOf: formatDate(report.asOf) })}</Text>
            ) : (
              <ReportTable report={report} state={state} />
            )}
            <Pager
              page={data.page}
              pages={pageCount(report.count, AGEING_PAGE_SIZE)}
              hrefFor={(page) => ageingHref({ ...state, page })}
              label={t('analytics.ageing.pages')}
              testId="ageing-pager"
            />
          </>
        ) : null}
      </Flex>
    </SectionCard>
  );
}
