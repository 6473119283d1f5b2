import { parseWithZod } from '@conform-to/zod/v4';
import { MagnifyingGlassIcon } from '@radix-ui/react-icons';
import { Button, Card, Flex, Grid, Heading, Text, TextField } from '@radix-ui/themes';
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useLocation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { TabBar } from '~/components/kit/tab-bar.tsx';
import { clientIp } from '~/auth/login.server.ts';
import { can, requirePermission } from '~/auth/permissions.server.ts';
import type { PublicUser } from '~/auth/user-record.server.ts';
import { assignEntry, importBankStatement, listUnmatchedEntries } from '~/banking/camt053.server.ts';
import { readStatementUpload } from '~/banking/upload.server.ts';
import { FigureCard } from '~/components/kit/figure-card.tsx';
import { RecordPaymentDialog, RecordPaymentPanel, type RecordActionData } from '~/components/payments/record-payment.tsx';
import { BankPanel, PaymentsTable, PayoutsPanel } from '~/components/payments/tables.tsx';
import { listPayableInvoices } from '~/invoices/invoice-queries.server.ts';
import { confirmPayment, failPayment, refundPayment } from '~/payments/payment-transitions.server.ts';
import { listPayments, paymentSummary, paymentTabCounts } from '~/payments/payment-queries.server.ts';
import { recordPayment } from '~/payments/payment-recording.server.ts';
import { PAYMENT_TABS, PAYOUT_FILTERS, paymentCreateSchema, paymentPageIntentSchema, type PaymentTab, type PayoutFilter } from '~/payments/schemas.ts';
import { listPayouts, markPayoutsPaid } from '~/payouts/payouts.server.ts';
import { readApiError } from '~/utils/api.server.ts';
import type { ToastInput } from '~/utils/toast.ts';
import { redirectWithToast, toastHeaders } from '~/utils/toast.server.ts';
import { readFormData } from '~/utils/form-data.server.ts';
import { readIntent, unknownIntent } from '~/utils/intent.server.ts';
import { isSingleLineText } from '~/utils/validation.ts';
import { formatEur } from '~/utils/format.ts';
import { Pager } from '~/components/kit/pager.tsx';
import { pageCount, pageOffset, readListUrl, tabSchema } from '~/utils/list-url.ts';
import { CreateButton, useCreateDialog } from '~/components/kit/create-form.tsx';

/**
 * /payments (docs/screens.md): the record-payment dialog, search, tabs pending
 * (default), confirmed, failed, refunded, all, the four summary cards; plus
 * the payouts tab (advances and reserve releases, pain.001 export) and the
 * bank statement tab (camt.053 import, unmatched entries). Everything lives
 * in the URL (?tab=&q=&page=&payoutStatus=&new=1) and every action is a form
 * post with an intent, so the page works without JavaScript.
 */
const PAGE_SIZE = 20;
const EXTRA_TABS = ['payouts', 'bank'] as const;
type Tab = PaymentTab | (typeof EXTRA_TABS)[number];
const TABS = [...PAYMENT_TABS, ...EXTRA_TABS] as const;
const TAB = tabSchema(TABS, 'pending');
const PAYOUT_STATUS = tabSchema(PAYOUT_FILTERS, 'pending');

function readUrl(url: URL) {
  const list = readListUrl(url);
  const params = list.params;
  const tab: Tab = list.read(TAB);
  const payoutStatus: PayoutFilter = list.read(PAYOUT_STATUS, 'payoutStatus');
  const count = (name: string) => {
    const value = Number.parseInt(params.get(name) ?? '', 10);
    return Number.isFinite(value) && value >= 0 ? value : null;
  };
  const matched = count('matched');
  const unmatched = count('unmatched');
  const duplicates = count('duplicates');
  return {
    tab,
    q: list.q,
    page: list.page,
    payoutStatus,
    showNew: list.showNew,
    imported: matched !== null && unmatched !== null && duplicates !== null ? { matched, unmatched, duplicates } : null,
  };
}

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requirePermission(request, 'read:all');
  const url = readUrl(new URL(request.url));
  const offset = pageOffset(url.page, PAGE_SIZE);
  const isPaymentTab = (PAYMENT_TABS as readonly string[]).includes(url.tab);
  const [summary, counts, payments, payable, payouts, unmatched] = await Promise.all([
    paymentSummary(),
    paymentTabCounts({ q: url.q }),
    isPaymentTab ? listPayments({ q: url.q, tab: url.tab, limit: PAGE_SIZE, offset }) : Promise.resolve(null),
    // The dialog's and the assign form's choice of invoices: financed and not fully paid.
    listPayableInvoices({ limit: 500 }),
    url.tab === 'payouts' ? listPayouts({ status: url.payoutStatus, limit: 200 }) : Promise.resolve(null),
    url.tab === 'bank' ? listUnmatchedEntries({ limit: 200 }) : Promise.resolve(null),
  ]);
  return json({
    ...url,
    summary,
    counts,
    payments: payments?.items ?? [],
    total: payments?.total ?? 0,
    pages: pageCount(payments?.total ?? 0, PAGE_SIZE),
    payable: payable.items.map(({ id, invoiceNumber, customerName, clientName, openAmount }) => ({ id, invoiceNumber, customerName, clientName, openAmount })),
    payouts: payouts?.items ?? [],
    payoutsPendingTotal: payouts?.pendingTotal ?? 0,
    unmatched: unmatched?.items ?? [],
    canDecide: can(user, 'confirm:payment'),
    canExport: can(user, 'finance:invoice'),
    canRecord: can(user, 'create:payment'),
  });
}

/** Back to where the form was, never elsewhere. */
function safeReturn(value: FormDataEntryValue | string | null | undefined, fallback = '/payments'): string {
  const text = typeof value === 'string' ? value : '';
  return /^\/payments(\?[^\s]*)?$/.test(text) && isSingleLineText(text) ? text : fallback;
}

function withoutNew(path: string): string {
  const url = new URL(path, 'http://x');
  url.searchParams.delete('new');
  const search = url.searchParams.toString();
  return `${url.pathname}${search ? `?${search}` : ''}`;
}

async function refusalToast(error: unknown, description: string): Promise<ToastInput> {
  const problem = await readApiError(error);
  if (!problem) throw error;
  return { title: 'payments.toast.errorTitle', description, params: { reason: problem.message }, variant: 'destructive' };
}

const TRANSITIONS = {
  confirm: { run: confirmPayment, ok: 'payments.toast.confirmed', failed: 'payments.toast.confirmFailed' },
  fail: { run: failPayment, ok: 'payments.toast.failed', failed: 'payments.toast.failFailed' },
  refund: { run: refundPayment, ok: 'payments.toast.refunded', failed: 'payments.toast.refundFailed' },
} as const;

export async function action({ request, context }: ActionFunctionArgs) {
  const ip = clientIp(context);
  const type = (request.headers.get('Content-Type') ?? '').toLowerCase();
  // The only multipart form of the page is the bank statement upload.
  if (type.startsWith('multipart/form-data')) {
    const actor = await requirePermission(request, 'create:payment');
    const back = '/payments?tab=bank';
    try {
      const { xml, fileName } = await readStatementUpload(request);
      const result = await importBankStatement({ actor, xml, fileName, ip });
      const target = `${back}&matched=${result.matched}&unmatched=${result.unmatched}&duplicates=${result.duplicates}`;
      return redirectWithToast(target, {
        title: 'payments.toast.successTitle',
        description: 'payments.toast.imported',
        params: { matched: result.matched, unmatched: result.unmatched, duplicates: result.duplicates },
      });
    } catch (error) {
      return redirectWithToast(back, await refusalToast(error, 'payments.toast.importFailed'));
    }
  }

  const formData = await readFormData(request);
  const parsed = readIntent(formData, paymentPageIntentSchema);
  if (!parsed) return unknownIntent();
  const { intent } = parsed;
  const back = safeReturn(formData.get('returnTo'));
  if (intent === 'create') return createPayment(request, formData, ip);

  if (intent === 'confirm' || intent === 'fail' || intent === 'refund') {
    const actor = await requirePermission(request, 'confirm:payment');
    const spec = TRANSITIONS[intent];
    try {
      await spec.run({ actor, id: String(formData.get('id') ?? ''), ip });
    } catch (error) {
      return redirectWithToast(back, await refusalToast(error, spec.failed));
    }
    return redirectWithToast(back, { title: 'payments.toast.successTitle', description: spec.ok });
  }

  if (intent === 'markPaid') {
    const actor = await requirePermission(request, 'finance:invoice');
    try {
      const paid = await markPayoutsPaid({ actor, ids: formData.getAll('ids').map(String), ip });
      return redirectWithToast(back, { title: 'payments.toast.successTitle', description: 'payments.toast.markedPaid', params: { count: paid.length } });
    } catch (error) {
      return redirectWithToast(back, await refusalToast(error, 'payments.toast.markPaidFailed'));
    }
  }

  if (intent === 'assign') {
    const actor = await requirePermission(request, 'create:payment');
    try {
      await assignEntry({ actor, id: String(formData.get('id') ?? ''), input: { invoiceId: formData.get('invoiceId') }, ip });
    } catch (error) {
      return redirectWithToast(back, await refusalToast(error, 'payments.toast.assignFailed'));
    }
    return redirectWithToast(back, { title: 'payments.toast.successTitle', description: 'payments.toast.assigned' });
  }
  return unknownIntent();
}

/**
 * The record-payment form. From the dialog (`via=dialog`) it answers JSON so
 * the dialog closes, with the success toast in the flash cookie; from the
 * `?new=1` panel it redirects (PRG). A refusal goes back onto the fields.
 */
async function createPayment(request: Request, formData: FormData, ip: string | null) {
  const actor: PublicUser = await requirePermission(request, 'create:payment');
  const submission = parseWithZod(formData, { schema: paymentCreateSchema });
  if (submission.status !== 'success') return json({ intent: 'create' as const, result: submission.reply() }, { status: 400 });
  const field = (name: string) => {
    const value = formData.get(name);
    return typeof value === 'string' ? value : undefined;
  };
  try {
    await recordPayment({
      actor,
      input: { invoiceId: field('invoiceId'), amount: field('amount'), paymentMethod: field('paymentMethod'), reference: field('reference'), notes: field('notes') },
      ip,
    });
  } catch (error) {
    const problem = await readApiError(error);
    if (!problem) throw error;
    const result = submission.reply({ formErrors: problem.errors ? [] : [problem.message], fieldErrors: problem.errors ?? {} });
    return json({ intent: 'create' as const, result }, { status: problem.status });
  }
  const toast = { title: 'payments.toast.successTitle', description: 'payments.toast.recorded' };
  if (formData.get('via') === 'dialog') {
    return json({ intent: 'create' as const, result: submission.reply({ resetForm: true }), created: true }, { headers: await toastHeaders(toast) });
  }
  return redirectWithToast(withoutNew(safeReturn(formData.get('returnTo'), '/payments')), toast);
}

/** The four summary cards: the figure each shows (also its label key), its test id, hint key and colour. */
const SUMMARY_CARDS = [
  { key: 'pending', testId: 'summary-pending', hint: 'pendingHint', colour: 'amber' },
  { key: 'confirmedThisMonth', testId: 'summary-confirmed', hint: 'confirmedHint', colour: 'green' },
  { key: 'overdue', testId: 'summary-overdue', hint: 'overdueHint', colour: 'red' },
  { key: 'failed', testId: 'summary-failed', hint: 'failedHint', colour: 'gray' },
] as const;

export default function PaymentsPage() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<RecordActionData>();
  const { t } = useTranslation();
  const location = useLocation();
  const dialog = useCreateDialog();
  const newParams = new URLSearchParams(location.search);
  newParams.set('new', '1');
  const cancelParams = new URLSearchParams(location.search);
  cancelParams.delete('new');
  const tabHref = (tab: Tab) => {
    const params = new URLSearchParams();
    if (data.q && (PAYMENT_TABS as readonly string[]).includes(tab)) params.set('q', data.q);
    if (tab !== 'pending') params.set('tab', tab);
    const search = params.toString();
    return search ? `/payments?${search}` : '/payments';
  };
  const pageHref = (page: number) => {
    const params = new URLSearchParams(location.search);
    params.delete('new');
    if (page > 1) params.set('page', String(page));
    else params.delete('page');
    return `?${params}`;
  };
  const isPaymentTab = (PAYMENT_TABS as readonly string[]).includes(data.tab);
  const { summary } = data;
  return (
    <Flex direction="column" gap="4">
      <Flex justify="between" align="center" gap="3" wrap="wrap">
        <Heading as="h2" size="6">
          {t('payments.title')}
        </Heading>
        {data.canRecord ? <CreateButton to={`?${newParams}`} onOpen={dialog.show} label={t('payments.record')} /> : null}
      </Flex>
      {data.showNew && data.canRecord ? (
        <RecordPaymentPanel invoices={data.payable} lastResult={actionData?.result} cancelTo={`/payments${cancelParams.size ? `?${cancelParams}` : ''}`} />
      ) : null}

      <Grid columns={{ initial: '1', sm: '2', lg: '4' }} gap="3" data-testid="summary-cards">
        {SUMMARY_CARDS.map(({ key, testId, hint, colour }) => (
          <FigureCard
            key={key}
            testId={testId}
            label={t(`payments.summary.${key}`)}
            value={formatEur(summary[key].amount)}
            valueTestId="summary-amount"
            valueSize="5"
            colour={colour}
            note={t(`payments.summary.${hint}`, { count: summary[key].count })}
            noteTestId="summary-count"
          />
        ))}
      </Grid>

      <TabBar
        label={t('payments.tabsLabel')}
        tabs={TABS}
        active={data.tab}
        hrefFor={tabHref}
        labelFor={(tab) => t(`payments.tabs.${tab}`)}
        countFor={(tab) => ((PAYMENT_TABS as readonly string[]).includes(tab) ? data.counts[tab as PaymentTab] : undefined)}
      />

      {isPaymentTab ? (
        <>
          <Form method="get" role="search" aria-label={t('payments.searchLabel')}>
            {data.tab !== 'pending' ? <input type="hidden" name="tab" value={data.tab} /> : null}
            <Flex gap="2" align="center" wrap="wrap">
              <TextField.Root name="q" defaultValue={data.q} placeholder={t('payments.searchPlaceholder')} aria-label={t('payments.searchLabel')} style={{ minWidth: 300 }}>
                <TextField.Slot>
                  <MagnifyingGlassIcon />
                </TextField.Slot>
              </TextField.Root>
              <Button type="submit" variant="soft">
                {t('payments.search')}
              </Button>
              {data.q ? (
                <Button asChild variant="ghost" color="gray">
                  <Link to={tabHref(data.tab)}>{t('payments.clearSearch')}</Link>
                </Button>
              ) : null}
              <Text size="2" color="gray" data-testid="total-count">
                {t('payments.total', { count: data.total })}
              </Text>
            </Flex>
          </Form>
          {data.payments.length === 0 ? (
            <Card size="3">
              <Text color="gray">{data.q ? t('payments.noMatches', { q: data.q }) : t('payments.empty')}</Text>
            </Card>
          ) : (
            <PaymentsTable payments={data.payments} canDecide={data.canDecide} />
          )}
          <Pager page={data.page} pages={data.pages} hrefFor={pageHref} size="2" />
        </>
      ) : null}
      {data.tab === 'payouts' ? <PayoutsPanel payouts={data.payouts} status={data.payoutStatus} canExport={data.canExport} pendingTotal={data.payoutsPendingTotal} /> : null}
      {data.tab === 'bank' ? <BankPanel entries={data.unmatched} invoices={data.payable} result={data.imported} /> : null}
      {data.canRecord ? <RecordPaymentDialog open={dialog.open} onOpenChange={dialog.onOpenChange} invoices={data.payable} /> : null}
    </Flex>
  );
}
