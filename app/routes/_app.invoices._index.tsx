import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { clientIp } from '~/auth/login.server.ts';
import { can, requirePermission } from '~/auth/permissions.server.ts';
import { AddInvoiceDialog, AddInvoicePanel, type AddResult } from '~/components/invoices/add-invoice.tsx';
import { InvoiceCard } from '~/components/invoices/display.tsx';
import { useRefusalText } from '~/components/refusal-text.ts';
import { InvoiceSearch, InvoiceTabs, invoicesHref, PLACEHOLDER_CARDS } from '~/components/invoices/list.tsx';
import { EmptyState, PlaceholderCards } from '~/components/kit/list-states.tsx';
import { useListLoading } from '~/components/kit/list-loading.ts';
import { Pager } from '~/components/kit/pager.tsx';
import { LightGrid, LightHeading, Stack } from '~/components/kit/light.tsx';
import { pageCount } from '~/utils/list-url.ts';
import { useToast } from '~/components/toaster.tsx';
import { invoiceTabCounts, listInvoices } from '~/invoices/invoice-queries.server.ts';
import { invoiceStatusTotals } from '~/invoices/summaries.server.ts';
import {
  backTo,
  financePreviews,
  handleCreate,
  handleDecision,
  handleFind,
  handleImport,
  invoiceListParams,
  PAGE_SIZE,
  partyOptions,
  readAddForm,
  type DecisionRefusal,
  type PartyOptionsView,
} from '~/invoices/page.server.ts';
import { redirectWithToast } from '~/utils/toast.server.ts';
import { readFormData } from '~/utils/form-data.server.ts';
import { readIntent, unknownIntent } from '~/utils/intent.server.ts';
import { invoiceDecisionIntentSchema } from '~/invoices/schemas.ts';
import { CreateButton, useCreateDialog } from '~/components/kit/create-form.tsx';

/** /invoices (docs/screens.md): newest first, ?q (number, description), ?tab (all or a status), ?page, ?new=1 (the add form without JavaScript). */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requirePermission(request, 'read:all');
  const { q, tab, page, offset, limit, showNew } = invoiceListParams(request);
  const canCreate = can(user, 'create:invoice');
  // Without a search the list's total and the tabs' counts both come from the maintained totals: read once.
  const statusTotals = q ? undefined : invoiceStatusTotals();
  const [{ items, total }, counts, options] = await Promise.all([
    listInvoices({ q, status: tab === 'all' ? null : tab, limit, offset, statusTotals }),
    invoiceTabCounts({ q, statusTotals }),
    // The no-JavaScript panel needs the lists in the page; the dialog loads its own (PartySelect).
    canCreate && showNew
      ? partyOptions()
      : Promise.resolve<PartyOptionsView>({ clients: [], customers: [], capped: { clients: false, customers: false }, found: { clients: 0, customers: 0 } }),
  ]);
  const rights = {
    verify: can(user, 'verify:invoice'),
    approve: can(user, 'approve:invoice'),
    finance: can(user, 'finance:invoice'),
    reject: can(user, 'reject:invoice'),
  };
  const previews = rights.finance ? await financePreviews(items) : {};
  return json({ items, total, counts, q, tab, page, pages: pageCount(total, PAGE_SIZE), showNew, canCreate, rights, previews, options });
}

/** Multipart posts add an invoice (intent create|import) or, with 'find', search the pickers; plain posts decide (verify|approve|finance|reject). */
export async function action({ request, context }: ActionFunctionArgs) {
  const ip = clientIp(context);
  const back = backTo(request);
  if ((request.headers.get('Content-Type') ?? '').startsWith('multipart/form-data')) {
    const actor = await requirePermission(request, 'create:invoice');
    const formData = await readAddForm(request);
    if (formData === 'tooLarge') {
      return redirectWithToast(invoicesHref({ q: '', tab: 'all' }, { new: '1' }), {
        title: 'invoices.toast.errorTitle',
        description: 'invoices.toast.tooLarge',
        variant: 'destructive',
      });
    }
    // A picker's search step (no JavaScript) comes before the form's own intent: nothing is stored.
    if (formData.has('find')) return handleFind(formData);
    if (formData.get('intent') === 'import') return handleImport(formData, { actor, ip, back });
    return handleCreate(formData, { actor, ip, back });
  }
  // Reading is enough to post: the domain refuses a decision the role may not make (403, shown on the card).
  const actor = await requirePermission(request, 'read:all');
  const formData = await readFormData(request);
  if (!readIntent(formData, invoiceDecisionIntentSchema)) return unknownIntent();
  return handleDecision(formData, { actor, ip, back });
}

type ActionData = AddResult | DecisionRefusal;
const isRefusal = (data: ActionData | undefined): data is DecisionRefusal => Boolean(data && 'id' in data && 'message' in data);

export default function InvoicesPage() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<ActionData>();
  const { t } = useTranslation();
  const showRefusal = useRefusalText();
  const toast = useToast();
  const loading = useListLoading();
  const dialog = useCreateDialog();
  const refusal = isRefusal(actionData) ? actionData : null;
  const addData = actionData && !isRefusal(actionData) ? actionData : null;
  // A refused add post (without JavaScript) comes back into the panel, with what the user entered.
  const showPanel = data.canCreate && (data.showNew || Boolean(addData));

  useEffect(() => {
    if (refusal) {
      toast({ title: `invoices.toast.${refusal.intent}Failed`, description: 'invoices.toast.reason', params: { reason: showRefusal(refusal.message) }, variant: 'destructive' });
    }
    // A new refusal from the server, not a re-render, shows the toast.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [refusal]);

  const addButton = (label: string, variant?: 'soft') => <CreateButton to={invoicesHref(data, { new: '1' })} onOpen={dialog.show} label={label} variant={variant} />;

  return (
    <Stack direction="column" gap="4">
      <Stack justify="between" align="center" gap="3" wrap="wrap">
        <LightHeading as="h2" size="6">
          {t('invoices.title')}
        </LightHeading>
        {data.canCreate ? addButton(t('invoices.add')) : null}
      </Stack>
      {showPanel ? <AddInvoicePanel options={data.options} actionData={addData} cancelTo={invoicesHref(data)} /> : null}
      <InvoiceSearch q={data.q} tab={data.tab} />
      <InvoiceTabs q={data.q} tab={data.tab} counts={data.counts} />
      {loading ? (
        <PlaceholderCards count={PLACEHOLDER_CARDS} label={t('invoices.loading')} lines={['50%', '80%', '60%', '70%']} badge />
      ) : data.items.length === 0 ? (
        <EmptyState
          title={data.q ? t('invoices.noMatches', { q: data.q }) : t('invoices.empty')}
          action={data.canCreate && !data.q ? addButton(t('invoices.emptyAction'), 'soft') : null}
        />
      ) : (
        <>
          <LightGrid columns={{ initial: '1', md: '2' }} gap="4" data-testid="invoice-grid">
            {data.items.map((invoice) => (
              <InvoiceCard
                key={invoice.id}
                invoice={invoice}
                rights={data.rights}
                preview={(data.previews as Record<string, { factorAmount: number; factorFee: number }>)[invoice.id]}
                refusal={refusal?.id === invoice.id ? refusal : null}
              />
            ))}
          </LightGrid>
          <Pager page={data.page} pages={data.pages} hrefFor={(page) => invoicesHref({ q: data.q, tab: data.tab, page })} />
        </>
      )}
      {data.canCreate ? <AddInvoiceDialog options={data.options} open={dialog.open} onOpenChange={dialog.onOpenChange} /> : null}
    </Stack>
  );
}
