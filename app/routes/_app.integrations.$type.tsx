import { Badge, Button, Card, DataList, Flex, Heading, Link as RadixLink, Table, Text, TextField } from '@radix-ui/themes';
import { pageTitle } from '~/utils/meta.ts';
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { TabBar } from '~/components/kit/tab-bar.tsx';
import { clientIp } from '~/auth/login.server.ts';
import { can, requirePermission } from '~/auth/permissions.server.ts';
import { CustomerStatusBadge } from '~/components/clients/display.tsx';
import { IncomingEInvoices, OutgoingEInvoices } from '~/components/einvoices/einvoice-lists.tsx';
import { IntegrationConfigForm, type ConfigFormErrors } from '~/components/integrations/config-form.tsx';
import { useRefusalText } from '~/components/refusal-text.ts';
import { IntegrationCard } from '~/components/integrations/integration-card.tsx';
import { IntegrationLogsTable } from '~/components/integrations/logs-table.tsx';
import { einvoicingLists, handleEInvoiceIntent, isEInvoiceIntent } from '~/einvoices/page.server.ts';
import { recentFinaChecks } from '~/fina/checks.server.ts';
import { sandboxMailbox } from '~/integrations/einvoicing.server.ts';
import { getFina } from '~/integrations/fina.server.ts';
import { PERIOD_PATTERN, previousQuarter, quarterlyFigures } from '~/integrations/hanfa.server.ts';
import { getIntegration, listIntegrationLogs } from '~/integrations/integrations.server.ts';
import { handleIntegrationIntent } from '~/integrations/page.server.ts';
import { isIntegrationType, type IntegrationType } from '~/integrations/types.ts';
import { formatDateTime, formatEur } from '~/utils/format.ts';
import { isValidOib } from '~/utils/validation.ts';
import { readFormData } from '~/utils/form-data.server.ts';
import { pageCount, pageOffset, readListUrl, tabSchema } from '~/utils/list-url.ts';
import { DataTable } from '~/components/kit/data-table.tsx';
import { PageHeader } from '~/components/kit/page-header.tsx';
import { IntentForm } from '~/components/kit/intent-form.tsx';
import { AlertCallout } from '~/components/kit/callouts.tsx';
import { Fact } from '~/components/kit/light.tsx';

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageTitle(matches, 'nav.integrationsPage', data?.integration.name);

const TABS = ['overview', 'configure', 'logs', 'setup'] as const;
type Tab = (typeof TABS)[number];
const TAB = tabSchema(TABS, 'overview');
const LOGS_PER_PAGE = 20;

async function finaLookup(oib: string | null) {
  if (!oib) return null;
  if (!isValidOib(oib)) return { oib, error: 'integrations.validation.oibInvalid' };
  try {
    const fina = getFina();
    const [company, blockage] = await Promise.all([fina.companyByOib(oib), fina.accountBlockage(oib)]);
    return { oib, company, blockage };
  } catch (error) {
    return { oib, error: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * One integration's own page (the sidebar's /integrations/hanfa, /fina,
 * /einvoicing; also sendgrid and docusign): ?tab overview (its card and, for
 * FINA the recent checks and an OIB lookup, for HANFA the quarterly report,
 * for e-invoicing the outgoing e-invoices (?page), the received ones
 * (?incomingPage) and the mailbox), configure (admin), logs (?page), setup.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requirePermission(request, 'read:all');
  if (!isIntegrationType(params.type)) throw new Response('Not Found', { status: 404, statusText: 'Not Found' });
  const type: IntegrationType = params.type;
  const list = readListUrl(request);
  const search = list.params;
  const canManage = can(user, 'manage:integrations');
  let tab: Tab = list.read(TAB);
  if (tab === 'configure' && !canManage) tab = 'overview';
  const page = list.page;
  const integration = await getIntegration(type);
  const logs = tab === 'logs' ? await listIntegrationLogs(type, { limit: LOGS_PER_PAGE, offset: pageOffset(page, LOGS_PER_PAGE) }) : null;
  const periodParam = search.get('period') ?? '';
  const period = PERIOD_PATTERN.test(periodParam) ? periodParam : previousQuarter();
  const overview = tab === 'overview';
  return json({
    type,
    tab,
    page,
    canManage,
    integration,
    logs: logs ? { items: logs.logs, pages: pageCount(logs.total, LOGS_PER_PAGE) } : null,
    finaChecks: overview && type === 'fina' ? await recentFinaChecks(20) : null,
    lookup: overview && type === 'fina' ? await finaLookup(search.get('oib')?.trim() || null) : null,
    hanfa: overview && type === 'hanfa' ? await quarterlyFigures(period) : null,
    mailbox: overview && type === 'einvoicing' ? await sandboxMailbox() : null,
    einvoices: overview && type === 'einvoicing' ? await einvoicingLists(search) : null,
    canSendEInvoices: can(user, 'send:einvoice'),
    canCreateInvoices: can(user, 'create:invoice'),
    currentPath: `${new URL(request.url).pathname}${new URL(request.url).search}`,
  });
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const fallback = `/integrations/${params.type ?? ''}`;
  // The e-invoice lists' own intents have their own permissions (manager, user); the rest are the integration's (admin).
  const intent = String((await readFormData(request.clone())).get('intent') ?? '');
  if (params.type === 'einvoicing' && isEInvoiceIntent(intent)) return handleEInvoiceIntent(request, { ip: clientIp(context), fallback });
  return handleIntegrationIntent(request, { ip: clientIp(context), fallback, type: params.type });
}

export default function IntegrationPage() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<ConfigFormErrors & { intent?: string }>();
  const { t } = useTranslation();
  const showRefusal = useRefusalText();
  const base = `/integrations/${data.type}`;
  const href = (tab: Tab, extra: Record<string, string> = {}) => {
    const search = new URLSearchParams(tab === 'overview' ? extra : { tab, ...extra });
    return search.size ? `${base}?${search}` : base;
  };
  const tabs = TABS.filter((tab) => tab !== 'configure' || data.canManage);
  /** The overview with one list paged and the other left where it was. */
  const pageHref = (change: Record<string, string>) => {
    const search = new URLSearchParams(data.currentPath.split('?')[1] ?? '');
    for (const [key, value] of Object.entries(change)) search.set(key, value);
    search.delete('tab');
    return `${base}?${search}`;
  };
  return (
    <Flex direction="column" gap="4">
      <PageHeader title={data.integration.name}>
        <RadixLink asChild size="2">
          <Link to="/integrations">{t('integrations.backToAll')}</Link>
        </RadixLink>
      </PageHeader>
      {actionData?.message && actionData.intent !== 'configure' ? <AlertCallout>{showRefusal(actionData.message)}</AlertCallout> : null}
      <TabBar label={t('integrations.tabsLabel')} tabs={tabs} active={data.tab} hrefFor={href} labelFor={(tab) => t(`integrations.detailTabs.${tab}`)} />
      {data.tab === 'overview' ? (
        <>
          <IntegrationCard integration={data.integration} canManage={data.canManage} redirectTo={base} />
          {data.hanfa ? <HanfaReport figures={data.hanfa} canManage={data.canManage} /> : null}
          {data.type === 'fina' ? <FinaSection checks={data.finaChecks ?? []} lookup={data.lookup} /> : null}
          {data.einvoices ? (
            <>
              <OutgoingEInvoices
                list={data.einvoices.outgoing}
                canSend={data.canSendEInvoices}
                redirectTo={data.currentPath}
                hrefFor={(page) => pageHref({ page: String(page) })}
              />
              <IncomingEInvoices
                list={data.einvoices.incoming}
                canRetry={data.canCreateInvoices}
                redirectTo={data.currentPath}
                hrefFor={(page) => pageHref({ incomingPage: String(page) })}
              />
            </>
          ) : null}
          {data.mailbox ? <Mailbox entries={data.mailbox} canManage={data.canManage} /> : null}
        </>
      ) : null}
      {data.tab === 'configure' ? <IntegrationConfigForm integration={data.integration} errors={actionData?.intent === 'configure' ? actionData : null} /> : null}
      {data.tab === 'logs' && data.logs ? (
        <IntegrationLogsTable logs={data.logs.items} page={data.page} pages={data.logs.pages} hrefFor={(page) => href('logs', { page: String(page) })} />
      ) : null}
      {data.tab === 'setup' ? (
        <>
          <Card size="3">
            <Flex direction="column" gap="2">
              <Heading as="h3" size="4">
                {t('integrations.setup.title')}
              </Heading>
              <ol>
                {(t(`integrations.setup.steps.${data.type}`, { returnObjects: true }) as unknown as string[]).map((step) => (
                  <li key={step}>
                    <Text size="2">{step}</Text>
                  </li>
                ))}
              </ol>
              <Text size="2" color="gray">
                {t('integrations.setup.modes')}
              </Text>
            </Flex>
          </Card>
          {data.canManage ? <IntegrationConfigForm integration={data.integration} errors={actionData?.intent === 'configure' ? actionData : null} /> : null}
        </>
      ) : null}
    </Flex>
  );
}

function HanfaReport({ figures, canManage }: { figures: NonNullable<ReturnType<typeof useLoaderData<typeof loader>>['hanfa']>; canManage: boolean }) {
  const { t } = useTranslation();
  const rows: [string, string][] = [
    [t('integrations.hanfa.financedCount'), String(figures.financedCount)],
    [t('integrations.hanfa.financedVolume'), formatEur(figures.financedVolume)],
    [t('integrations.hanfa.advances'), formatEur(figures.advances)],
    [t('integrations.hanfa.fees'), formatEur(figures.fees)],
    [t('integrations.hanfa.settledCount'), String(figures.settledCount)],
    [t('integrations.hanfa.outstandingCount'), String(figures.outstandingCount)],
    [t('integrations.hanfa.outstandingAdvances'), formatEur(figures.outstandingAdvances)],
    [t('integrations.hanfa.overdue'), `${figures.overdueCount} · ${formatEur(figures.overdueAmount)}`],
    [t('integrations.hanfa.parties'), `${figures.clients} / ${figures.customers}`],
  ];
  return (
    <Card size="3" data-testid="hanfa-report">
      <Flex direction="column" gap="3">
        <Heading as="h3" size="4">
          {t('integrations.hanfa.title', { period: figures.period })}
        </Heading>
        <Form method="get">
          <Flex gap="2" align="center">
            <TextField.Root name="period" defaultValue={figures.period} aria-label={t('integrations.hanfa.period')} style={{ width: 120 }} />
            <Button type="submit" variant="soft" size="1">
              {t('integrations.hanfa.show')}
            </Button>
          </Flex>
        </Form>
        <DataList.Root>
          {rows.map(([label, value]) => (
            <DataList.Item key={label}>
              <DataList.Label>{label}</DataList.Label>
              <DataList.Value>{value}</DataList.Value>
            </DataList.Item>
          ))}
        </DataList.Root>
        {canManage ? (
          <IntentForm intent="submitReport" values={{ period: figures.period, redirectTo: `/integrations/hanfa?period=${figures.period}` }}>
            <Button type="submit">{t('integrations.hanfa.submit')}</Button>
          </IntentForm>
        ) : null}
      </Flex>
    </Card>
  );
}

type LoaderData = ReturnType<typeof useLoaderData<typeof loader>>;

function FinaSection({ checks, lookup }: { checks: NonNullable<LoaderData['finaChecks']>; lookup: LoaderData['lookup'] }) {
  const { t } = useTranslation();
  const showRefusal = useRefusalText();
  return (
    <>
      <Card size="3">
        <Flex direction="column" gap="3">
          <Heading as="h3" size="4">
            {t('integrations.fina.lookupTitle')}
          </Heading>
          <Form method="get">
            <Flex gap="2" align="center">
              <TextField.Root name="oib" defaultValue={lookup?.oib ?? ''} inputMode="numeric" maxLength={11} aria-label="OIB" placeholder="OIB" />
              <Button type="submit" variant="soft">
                {t('integrations.fina.lookup')}
              </Button>
            </Flex>
          </Form>
          {lookup && 'error' in lookup ? (
            <Text color="red">{showRefusal(lookup.error)}</Text>
          ) : lookup && 'company' in lookup ? (
            <DataList.Root data-testid="fina-lookup">
              <Fact label={t('integrations.fina.name')}>{lookup.company.name}</Fact>
              <Fact label={t('integrations.fina.address')}>{lookup.company.address}</Fact>
              <Fact label={t('integrations.fina.status')}>{lookup.company.status}</Fact>
              <Fact label={t('integrations.fina.founded')}>{lookup.company.founded ?? '—'}</Fact>
              <Fact label={t('integrations.fina.account')}>
                <Flex gap="2" align="center">
                  <CustomerStatusBadge accountBlocked={lookup.blockage.blocked} />
                  {lookup.blockage.blocked ? `${lookup.blockage.reason ?? ''} (${lookup.blockage.since ?? ''})` : null}
                </Flex>
              </Fact>
            </DataList.Root>
          ) : null}
        </Flex>
      </Card>
      <Card size="3">
        <Flex direction="column" gap="3">
          <Heading as="h3" size="4">
            {t('integrations.fina.recentTitle')}
          </Heading>
          <DataTable
            variant="surface"
            data-testid="fina-checks"
            empty={t('integrations.fina.noChecks')}
            columns={[t('integrations.logs.time'), t('integrations.fina.customer'), 'OIB', t('integrations.fina.account')]}
            items={checks}
            rowKey={(check) => `${check.customerId}-${check.checkedAt}`}
            cells={(check) => (
              <>
                <Table.Cell>{formatDateTime(check.checkedAt)}</Table.Cell>
                <Table.Cell>
                  <Link to={`/customers/${check.customerId}`}>{check.companyName}</Link>
                </Table.Cell>
                <Table.Cell>{check.oib}</Table.Cell>
                <Table.Cell>
                  <Flex gap="2" align="center">
                    <CustomerStatusBadge accountBlocked={check.accountBlocked} />
                    {check.blockageReason ? <Text size="1">{check.blockageReason}</Text> : null}
                  </Flex>
                </Table.Cell>
              </>
            )}
          />
        </Flex>
      </Card>
    </>
  );
}

function Mailbox({ entries, canManage }: { entries: NonNullable<LoaderData['mailbox']>; canManage: boolean }) {
  const { t } = useTranslation();
  return (
    <Card size="3" data-testid="einvoicing-mailbox">
      <Flex direction="column" gap="3">
        <Flex justify="between" align="center">
          <Heading as="h3" size="4">
            {t('integrations.einvoicing.mailboxTitle')}
          </Heading>
          {canManage ? (
            <IntentForm intent="receive">
              <Button type="submit" variant="soft">
                {t('integrations.einvoicing.receive')}
              </Button>
            </IntentForm>
          ) : null}
        </Flex>
        <Text size="2" color="gray">
          {t('integrations.einvoicing.mailboxHelp')}
        </Text>
        <DataTable
          variant="surface"
          empty={t('integrations.einvoicing.empty')}
          columns={[t('integrations.logs.time'), t('integrations.einvoicing.folder'), t('integrations.einvoicing.document')]}
          items={entries}
          rowKey={(entry) => `${entry.folder}/${entry.name}`}
          cells={(entry) => (
            <>
              <Table.Cell>{formatDateTime(entry.modifiedAt)}</Table.Cell>
              <Table.Cell>
                <Badge variant="soft">{t(`integrations.einvoicing.folders.${entry.folder}`)}</Badge>
              </Table.Cell>
              <Table.Cell>
                <code>{entry.name}</code>
              </Table.Cell>
            </>
          )}
        />
      </Flex>
    </Card>
  );
}
