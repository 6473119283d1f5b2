import { parseWithZod } from '@conform-to/zod/v4';
import { Card, Flex, Grid, Heading, Text } from '@radix-ui/themes';
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { PageHeader } from '~/components/kit/page-header.tsx';
import { SearchBar } from '~/components/kit/search-bar.tsx';
import { useTranslation } from 'react-i18next';
import { TabBar } from '~/components/kit/tab-bar.tsx';
import { clientIp } from '~/auth/login.server.ts';
import { can, requirePermission } from '~/auth/permissions.server.ts';
import { ClientLimitCard, RequestCard } from '~/components/limits/display.tsx';
import { RequestLimitDialog, RequestLimitPanel, type FindDebtorResult, type LimitActionData } from '~/components/limits/request-form.tsx';
import {
  approveCreditLimit,
  clientChoices,
  clientLimitsOverview,
  customerChoices,
  listCreditLimitRequests,
  rejectCreditLimit,
  requestCreditLimit,
} from '~/limits/credit-limits.server.ts';
import { addDays, zagrebToday } from '~/limits/dates.ts';
import {
  DEFAULT_VALIDITY_DAYS,
  FIXED_REJECTION_REASON,
  LIMIT_KINDS,
  LIMIT_PARTY_TYPES,
  LIMIT_TABS,
  creditLimitRequestSchema,
  decisionFormSchema,
  limitPageIntentSchema,
  type LimitKind,
  type LimitPartyType,
  type LimitTab,
} from '~/limits/schemas.ts';
import { AUTH_ERRORS } from '~/auth/schemas.ts';
import { readApiError } from '~/utils/api.server.ts';
import { formatEur } from '~/utils/format.ts';
import { redirectWithToast, toastHeaders } from '~/utils/toast.server.ts';
import { readFormData } from '~/utils/form-data.server.ts';
import { readIntent } from '~/utils/intent.server.ts';
import { Pager } from '~/components/kit/pager.tsx';
import { pageCount, pageOffset, readListUrl, tabSchema } from '~/utils/list-url.ts';
import { CreateButton, useCreateDialog } from '~/components/kit/create-form.tsx';
import { listWriteOffRequests } from '~/recourse/write-off.server.ts';
import { handleRecourseIntent, recourseRights, type RecourseRefusal } from '~/recourse/page.server.ts';
import { recourseIntentSchema } from '~/recourse/schemas.ts';
import { WriteOffRequestsTable } from '~/components/recourse/recourse-panels.tsx';

const PAGE_SIZE = 20;
const GRID_PAGE_SIZE = 12;
/** The pending write-off requests beside the limit requests (?wpage), decided by an admin other than the requester. */
const WRITE_OFF_PAGE_SIZE = 10;
const LIMIT_TAB = tabSchema(LIMIT_TABS, 'pending');
const LIMIT_KIND = tabSchema(LIMIT_KINDS, 'all');
const NEW_FOR = tabSchema(LIMIT_PARTY_TYPES, 'client');

interface ListParams {
  q: string;
  tab: LimitTab;
  kind: LimitKind;
  page: number;
  cpage: number;
}

/**
 * Everything lives in the URL: ?q (party name/OIB), ?tab (pending by default), ?kind (all, client or
 * customer), ?page (requests), ?cpage (grid), ?new=1[&for=customer][&client=<id>|&customer=<id>] (the request form).
 */
function readUrl(url: URL) {
  const list = readListUrl(url);
  const kind = list.read(LIMIT_KIND, 'kind');
  const customerId = list.id('customer');
  // A debtor preselected, or the debtors' list shown: the form asks for a debtor's limit unless told otherwise.
  const newFor: LimitPartyType = url.searchParams.has('for') ? list.read(NEW_FOR, 'for') : customerId || kind === 'customer' ? 'customer' : 'client';
  return {
    q: list.q,
    tab: list.read(LIMIT_TAB),
    kind,
    page: list.page,
    cpage: list.pageOf('cpage'),
    showNew: list.showNew,
    newFor,
    clientId: list.id('client'),
    customerId,
  };
}

function listHref(params: ListParams, changes: Partial<ListParams> & { new?: boolean; client?: string; for?: LimitPartyType } = {}): string {
  const next = { ...params, ...changes };
  const search = new URLSearchParams();
  if (next.q) search.set('q', next.q);
  if (next.tab !== 'pending') search.set('tab', next.tab);
  if (next.kind !== 'all') search.set('kind', next.kind);
  if (next.page > 1) search.set('page', String(next.page));
  if (next.cpage > 1) search.set('cpage', String(next.cpage));
  if (changes.new) search.set('new', '1');
  if (changes.for) search.set('for', changes.for);
  if (changes.client) search.set('client', changes.client);
  const text = search.toString();
  return text ? `/limits?${text}` : '/limits';
}

/**
 * /limits (docs/screens.md): the request form, the kind filter, the tabs with counts, the requests, the
 * grid of current limits (the debtors' when the kind is 'customer', else the clients').
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requirePermission(request, 'read:all');
  const url = readUrl(new URL(request.url));
  const canRequest = can(user, 'create:credit_limit');
  const gridKind: LimitPartyType = url.kind === 'customer' ? 'customer' : 'client';
  const wpage = readListUrl(new URL(request.url)).pageOf('wpage');
  const [list, grid, clients, debtors, writeOffs] = await Promise.all([
    listCreditLimitRequests({ q: url.q, status: url.tab, partyType: url.kind, limit: PAGE_SIZE, offset: pageOffset(url.page, PAGE_SIZE) }),
    clientLimitsOverview({ q: url.q, partyType: gridKind, limit: GRID_PAGE_SIZE, offset: pageOffset(url.cpage, GRID_PAGE_SIZE) }),
    canRequest ? clientChoices() : Promise.resolve([]),
    canRequest ? customerChoices({ chosenId: url.customerId }) : Promise.resolve({ customers: [], capped: false }),
    listWriteOffRequests({ status: 'pending', limit: WRITE_OFF_PAGE_SIZE, offset: pageOffset(wpage, WRITE_OFF_PAGE_SIZE) }),
  ]);
  const today = zagrebToday();
  return json({
    ...list,
    pages: pageCount(list.total, PAGE_SIZE),
    grid: grid.clients,
    gridTotal: grid.total,
    gridPages: pageCount(grid.total, GRID_PAGE_SIZE),
    gridKind,
    clients,
    customers: debtors.customers,
    customersCapped: debtors.capped,
    ...url,
    today,
    defaultValidUntil: addDays(today, DEFAULT_VALIDITY_DAYS),
    userId: user.id,
    canRequest,
    canDecide: can(user, 'decide:credit_limit'),
    writeOffs: writeOffs.items,
    writeOffTotal: writeOffs.total,
    wpage,
    writeOffPages: pageCount(writeOffs.total, WRITE_OFF_PAGE_SIZE),
    recourseRights: recourseRights(user),
  });
}

/** Back to the list as it was (search, tab, pages), without the form. */
function backTo(request: Request): string {
  const url = new URL(request.url);
  for (const name of ['new', 'for', 'client', 'customer', 'index']) url.searchParams.delete(name);
  const search = url.searchParams.toString();
  return search ? `${url.pathname}?${search}` : url.pathname;
}

/**
 * intent=create ('create:credit_limit'): the request form; intent=approve|reject
 * ('decide:credit_limit'): the buttons on a pending request. Approve uses the
 * requested limit and reject sends the fixed reason (docs/lifecycle.md#credit-limits). Every outcome of
 * a decision is a redirect with a toast, so it reads the same without JavaScript.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await readFormData(request);
  const ip = clientIp(context);
  const recourseIntent = readIntent(formData, recourseIntentSchema);
  if (recourseIntent && (recourseIntent.intent === 'approve-write-off' || recourseIntent.intent === 'reject-write-off')) {
    const actor = await requirePermission(request, 'decide:write_off');
    return handleRecourseIntent(recourseIntent, formData, { actor, ip, invoiceId: null, back: backTo(request) });
  }
  // Anything but a decision is the request form, as the form posts it.
  const intent = readIntent(formData, limitPageIntentSchema)?.intent ?? 'create';

  if (intent === 'approve' || intent === 'reject') {
    const actor = await requirePermission(request, 'decide:credit_limit');
    const back = backTo(request);
    const parsed = decisionFormSchema.safeParse({ intent, id: formData.get('id') });
    const failedTitle = intent === 'approve' ? 'limits.toast.approveFailed' : 'limits.toast.rejectFailed';
    if (!parsed.success) return redirectWithToast(back, { title: failedTitle, description: 'limits.validation.notFound', variant: 'destructive' });
    try {
      if (intent === 'approve') {
        const approved = await approveCreditLimit({ actor, id: parsed.data.id, ip });
        return redirectWithToast(back, {
          title: 'limits.toast.approved',
          description: 'limits.toast.approvedDetail',
          params: { client: approved.partyName, amount: formatEur(approved.approvedLimit, { decimals: 0 }) },
        });
      }
      const rejected = await rejectCreditLimit({ actor, id: parsed.data.id, reason: FIXED_REJECTION_REASON, ip });
      return redirectWithToast(back, { title: 'limits.toast.rejected', description: 'limits.toast.rejectedDetail', params: { client: rejected.partyName } });
    } catch (error) {
      const problem = await readApiError(error);
      if (!problem) throw error;
      // A role refusal reads as the page's own sentence rather than the generic 'Forbidden'.
      const description = problem.status === 403 && problem.code === AUTH_ERRORS.forbidden ? 'limits.validation.forbidden' : problem.code;
      return redirectWithToast(back, { title: failedTitle, description, params: problem.params, variant: 'destructive' });
    }
  }

  const actor = await requirePermission(request, 'create:credit_limit');
  // The debtor search step of the form without JavaScript: nothing is stored, the form comes back with what was entered.
  if (formData.has('find')) {
    const values = Object.fromEntries(['partyType', 'clientId', 'customerId', 'creditLimit', 'reason', 'validUntil'].map((name) => [name, String(formData.get(name) ?? '')]));
    const customerQ = String(formData.get('customerQ') ?? '')
      .trim()
      .slice(0, 100);
    const found = await customerChoices({ q: customerQ, chosenId: values.customerId });
    return json({ intent: 'find', values, customerQ, customers: found.customers, capped: found.capped } satisfies FindDebtorResult);
  }
  const submission = parseWithZod(formData, { schema: creditLimitRequestSchema });
  if (submission.status !== 'success') return json({ intent: 'create' as const, result: submission.reply() }, { status: 400 });
  let created;
  try {
    created = await requestCreditLimit({ actor, input: submission.value, ip });
  } catch (error) {
    const problem = await readApiError(error);
    if (!problem) throw error;
    const result = submission.reply({ formErrors: problem.errors ? [] : [problem.message], fieldErrors: problem.errors ?? {} });
    return json({ intent: 'create' as const, result }, { status: problem.status });
  }
  const toast = {
    title: 'limits.toast.created',
    description: 'limits.toast.createdDetail',
    params: { client: created.partyName, amount: formatEur(created.requestedLimit, { decimals: 0 }) },
  };
  // The dialog (JavaScript) stays on the page and closes; the ?new=1 panel redirects (PRG) to the pending tab where the request now is.
  if (formData.get('via') === 'dialog') {
    return json({ intent: 'create' as const, result: submission.reply({ resetForm: true }), created: true }, { headers: await toastHeaders(toast) });
  }
  const back = new URL(backTo(request), 'http://x');
  back.searchParams.delete('tab');
  back.searchParams.delete('page');
  // Back to the kind of the new request (or all), so it is on the list shown.
  if (back.searchParams.get('kind') !== created.partyType) back.searchParams.delete('kind');
  return redirectWithToast(`${back.pathname}${back.search}`, toast);
}

export default function LimitsPage() {
  const data = useLoaderData<typeof loader>();
  const answer = useActionData<LimitActionData | RecourseRefusal>();
  const recourseRefusal = answer && 'recourse' in answer ? answer : undefined;
  const actionData = answer && 'recourse' in answer ? undefined : answer;
  const { t } = useTranslation();
  const dialog = useCreateDialog();
  const params: ListParams = { q: data.q, tab: data.tab, kind: data.kind, page: data.page, cpage: data.cpage };
  // Without JavaScript the ?new=1 panel is the form; a refused post or a debtor search comes back into it.
  const find = actionData?.intent === 'find' ? actionData : null;
  const showPanel = data.canRequest && (data.showNew || Boolean(actionData));
  const newFor: LimitPartyType = find ? (find.values.partyType === 'customer' ? 'customer' : 'client') : data.newFor;

  return (
    <Flex direction="column" gap="4">
      <PageHeader title={t('limits.title')} subtitle={t('limits.subtitle')}>
        {data.canRequest ? <CreateButton to={listHref(params, { new: true })} onOpen={dialog.show} label={t('limits.add')} /> : null}
      </PageHeader>

      {showPanel ? (
        <RequestLimitPanel
          choices={data}
          customersCapped={data.customersCapped}
          partyType={newFor}
          clientId={data.clientId}
          customerId={data.customerId}
          lastResult={actionData?.intent === 'create' ? actionData.result : undefined}
          find={find}
          cancelTo={listHref(params)}
          hrefFor={(type) => listHref(params, { new: true, for: type })}
        />
      ) : null}

      <SearchBar
        label={t('limits.searchLabel')}
        placeholder={t('limits.searchPlaceholder')}
        q={data.q}
        keep={{ tab: data.tab !== 'pending' ? data.tab : null, kind: data.kind !== 'all' ? data.kind : null }}
        submitLabel={t('limits.search')}
        clear={data.q ? { to: listHref({ ...params, q: '', page: 1, cpage: 1 }), label: t('limits.clearSearch') } : null}
        minWidth={280}
      />

      <Flex direction="column" gap="3" asChild>
        <section aria-labelledby="limit-requests-heading">
          <Heading as="h3" size="4" id="limit-requests-heading" data-testid="requests-heading">
            {t(`limits.requestsOf.${data.kind}`)}
          </Heading>
          <TabBar
            label={t('limits.kinds.label')}
            tabs={LIMIT_KINDS}
            active={data.kind}
            hrefFor={(kind) => listHref({ ...params, kind, page: 1, cpage: 1 })}
            labelFor={(kind) => t(`limits.kinds.${kind}`)}
            testIdPrefix="kind"
          />
          <TabBar
            label={t('limits.requests')}
            tabs={LIMIT_TABS}
            active={data.tab}
            hrefFor={(tab) => listHref({ ...params, tab, page: 1 })}
            labelFor={(tab) => t(`limits.tabs.${tab}`)}
            countFor={(tab) => data.counts[tab]}
          />
          {data.requests.length === 0 ? (
            <Card>
              <Text color="gray">{data.q ? t('limits.noMatches', { q: data.q }) : t(`limits.empty.${data.tab}`)}</Text>
            </Card>
          ) : (
            <Grid columns={{ initial: '1', md: '2' }} gap="3" data-testid="limit-requests">
              {data.requests.map((request) => (
                <RequestCard key={request.id} request={request} canDecide={data.canDecide} isOwn={request.requestedById === data.userId} />
              ))}
            </Grid>
          )}
          <Pager page={data.page} pages={data.pages} hrefFor={(page) => listHref({ ...params, page })} label={t('limits.pagination.requests')} testId="requests-pages" />
        </section>
      </Flex>

      <Flex direction="column" gap="3" asChild>
        <section aria-labelledby="write-off-requests-heading" data-testid="write-off-requests">
          <Heading as="h3" size="4" id="write-off-requests-heading">
            {t('recourse.requests.title')} ({data.writeOffTotal})
          </Heading>
          <WriteOffRequestsTable requests={data.writeOffs} rights={data.recourseRights} refusal={recourseRefusal} showInvoice label={t('recourse.requests.tableLabel')} />
          <Pager
            page={data.wpage}
            pages={data.writeOffPages}
            hrefFor={(wpage) => {
              const base = listHref(params);
              return `${base}${base.includes('?') ? '&' : '?'}wpage=${wpage}`;
            }}
            label={t('recourse.requests.tableLabel')}
            testId="write-off-pages"
          />
        </section>
      </Flex>

      <Flex direction="column" gap="3" asChild>
        <section aria-labelledby="client-limits-heading">
          <Heading as="h3" size="4" id="client-limits-heading">
            {t(data.gridKind === 'client' ? 'limits.grid.title' : 'limits.grid.customerTitle')}
          </Heading>
          {data.grid.length === 0 ? (
            <Card>
              <Text color="gray">{data.q ? t('limits.noMatches', { q: data.q }) : t(data.gridKind === 'client' ? 'limits.grid.empty' : 'limits.grid.customerEmpty')}</Text>
            </Card>
          ) : (
            <Grid columns={{ initial: '1', sm: '2', lg: '3' }} gap="3" data-testid={data.gridKind === 'client' ? 'client-limits' : 'customer-limits'}>
              {data.grid.map((party) => (
                <ClientLimitCard
                  key={party.id}
                  client={party}
                  requestHref={data.canRequest ? `${listHref(params, { new: true })}&${party.partyType === 'client' ? 'client' : 'customer'}=${party.id}` : null}
                />
              ))}
            </Grid>
          )}
          <Pager
            page={data.cpage}
            pages={data.gridPages}
            hrefFor={(cpage) => listHref({ ...params, cpage })}
            label={t(data.gridKind === 'client' ? 'limits.pagination.grid' : 'limits.pagination.customerGrid')}
            testId="grid-pages"
          />
        </section>
      </Flex>

      {data.canRequest ? <RequestLimitDialog open={dialog.open} onOpenChange={dialog.onOpenChange} choices={data} /> : null}
    </Flex>
  );
}
