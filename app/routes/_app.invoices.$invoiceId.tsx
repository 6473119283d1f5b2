import { Flex, Grid, Heading, Text } from '@radix-ui/themes';
import { pageTitle } from '~/utils/meta.ts';
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Link, useActionData, useLoaderData } from '@remix-run/react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { clientIp } from '~/auth/login.server.ts';
import { can, requirePermission } from '~/auth/permissions.server.ts';
import { Facts, Section } from '~/components/clients/party-detail.tsx';
import { DecisionButtons, formatMoney, InvoiceStatusBadge, RefusalCallout, VerifiedBadge } from '~/components/invoices/display.tsx';
import { DocumentsSection, HistorySection, LinesSection, MoneyMovementsSection } from '~/components/invoices/detail.tsx';
import { FeeDocumentsSection } from '~/components/einvoices/fee-documents.tsx';
import { listInvoiceFeeDocuments } from '~/einvoices/outgoing.server.ts';
import { useRefusalText } from '~/components/refusal-text.ts';
import { useToast } from '~/components/toaster.tsx';
import { getInvoiceDetail } from '~/invoices/invoice-queries.server.ts';
import { eligibilityPanel, financedFees, financePreviews, handleDecision, type DecisionRefusal } from '~/invoices/page.server.ts';
import { EligibilityPanel, FinancedFeesSection } from '~/components/invoices/financing-panel.tsx';
import { formatDate, formatDateTime, formatEur } from '~/utils/format.ts';
import { readFormData } from '~/utils/form-data.server.ts';
import { readIntent, unknownIntent } from '~/utils/intent.server.ts';
import { invoiceDecisionIntentSchema } from '~/invoices/schemas.ts';
import { invoiceRecourse } from '~/recourse/recourse.server.ts';
import { invoiceWriteOffRequests } from '~/recourse/write-off.server.ts';
import { handleRecourseIntent, recourseRights, type RecourseRefusal } from '~/recourse/page.server.ts';
import { recourseIntentSchema } from '~/recourse/schemas.ts';
import { RecourseActions, WriteOffRequestsTable } from '~/components/recourse/recourse-panels.tsx';
import { CreditNotesSection, DisputeSection } from '~/components/dilution/invoice-dilution.tsx';
import { handleDilutionAction, isDilutionPost, loadInvoiceDilution, type DilutionActionData } from '~/dilution/page.server.ts';
import { businessDay } from '~/utils/business-time.ts';
import { InvoiceDebtorSection } from '~/components/debtors/invoice-debtor.tsx';
import { invoiceDebtorSection } from '~/debtors/page.server.ts';
import { OFFERED_STATUSES } from '~/debtors/schemas.ts';
import { DunningSection } from '~/components/dunning/dunning-section.tsx';
import { invoiceDunning } from '~/dunning/dunning.server.ts';
import { handleDunningHold, type DunningHoldActionData } from '~/dunning/page.server.ts';

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageTitle(matches, 'invoices.detail.metaTitle', data?.invoice.invoiceNumber);

/** An invoice with its parties, lines, documents, money movements and the history of every state change. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requirePermission(request, 'read:all');
  const invoice = await getInvoiceDetail(params.invoiceId ?? '').catch((error) => {
    if (error instanceof Response && error.status === 404) throw new Response('Not Found', { status: 404, statusText: 'Not Found' });
    throw error;
  });
  const rights = {
    verify: can(user, 'verify:invoice'),
    approve: can(user, 'approve:invoice'),
    finance: can(user, 'finance:invoice'),
    reject: can(user, 'reject:invoice'),
  };
  const previews = rights.finance ? await financePreviews([invoice]) : {};
  const [eligibility, fees, feeDocuments, recourse, writeOffs, dilution, debtor, dunning] = await Promise.all([
    eligibilityPanel(invoice),
    financedFees(invoice),
    listInvoiceFeeDocuments(invoice.id),
    invoiceRecourse(invoice.id),
    invoiceWriteOffRequests(invoice.id),
    loadInvoiceDilution(invoice.id, user),
    invoiceDebtorSection(invoice.id, user),
    invoiceDunning(invoice.id),
  ]);
  return json({
    invoice,
    rights: { ...rights, holdDunning: can(user, 'hold:dunning') },
    preview: previews[invoice.id] ?? null,
    eligibility,
    fees,
    feeDocuments,
    recourse,
    writeOffs,
    recourseRights: recourseRights(user),
    dilution,
    today: businessDay(),
    debtor,
    dunning,
  });
}

/** The same four decisions as the list; back here afterwards. */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const actor = await requirePermission(request, 'read:all');
  const formData = await readFormData(request);
  if (formData.get('intent') === 'dunning-hold') {
    const invoice = await getInvoiceDetail(params.invoiceId ?? '');
    return handleDunningHold(formData, {
      actor: await requirePermission(request, 'hold:dunning'),
      ip: clientIp(context),
      invoiceId: invoice.id,
      invoiceNumber: invoice.invoiceNumber,
    });
  }
  const recourseIntent = readIntent(formData, recourseIntentSchema);
  if (recourseIntent)
    return handleRecourseIntent(recourseIntent, formData, { actor, ip: clientIp(context), invoiceId: params.invoiceId ?? null, back: `/invoices/${params.invoiceId}` });
  // The credit note and dispute forms (docs/collections.md#dilution-and-disputes-resolved).
  if (isDilutionPost(formData)) return handleDilutionAction(formData, { actor, ip: clientIp(context), invoiceId: params.invoiceId ?? '' });
  if (!readIntent(formData, invoiceDecisionIntentSchema)) return unknownIntent();
  // The id in the URL decides which invoice, whatever the form says.
  formData.set('id', params.invoiceId ?? '');
  return handleDecision(formData, { actor, ip: clientIp(context), back: `/invoices/${params.invoiceId}` });
}

export default function InvoiceDetailPage() {
  const {
    invoice,
    rights,
    preview,
    eligibility,
    fees,
    feeDocuments,
    recourse,
    writeOffs,
    recourseRights: recourseAllowed,
    dilution,
    today,
    debtor,
    dunning,
  } = useLoaderData<typeof loader>();
  const answer = useActionData<DecisionRefusal | RecourseRefusal | DilutionActionData | DunningHoldActionData>();
  // Four forms answer here: the decisions (intent + message), recourse (recourse), dilution and the dunning hold (intent + result).
  const refusal = answer && 'intent' in answer && 'message' in answer ? answer : undefined;
  const recourseRefusal = answer && 'recourse' in answer ? answer : undefined;
  const holdResult = answer && 'result' in answer && answer.intent === 'dunning-hold' ? answer.result : null;
  const dilutionData = answer && 'result' in answer && answer.intent !== 'dunning-hold' ? answer : undefined;
  const { t } = useTranslation();
  const showRefusal = useRefusalText();
  const toast = useToast();
  useEffect(() => {
    if (refusal?.message) {
      toast({ title: `invoices.toast.${refusal.intent}Failed`, description: 'invoices.toast.reason', params: { reason: showRefusal(refusal.message) }, variant: 'destructive' });
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [refusal]);
  const { client, customer } = invoice;
  return (
    <Flex direction="column" gap="4">
      <Link to="/invoices">{t('invoices.backToList')}</Link>
      <Flex justify="between" align="center" gap="3" wrap="wrap">
        <Heading as="h2" size="6" data-testid="detail-title">
          {t('invoices.detail.title', { number: invoice.invoiceNumber })}
        </Heading>
        <Flex gap="2">
          <InvoiceStatusBadge status={invoice.status} />
          {invoice.verificationStatus === 'verified' ? <VerifiedBadge /> : null}
        </Flex>
      </Flex>
      {refusal?.message ? <RefusalCallout refusal={refusal} /> : null}
      {eligibility ? <EligibilityPanel eligible={eligibility.eligible} checks={eligibility.checks} /> : null}
      <Flex gap="2" wrap="wrap" align="start">
        <DecisionButtons invoice={invoice} rights={rights} preview={preview ?? undefined} refusal={refusal} />
      </Flex>
      <RecourseActions
        financed={invoice.status === 'financed'}
        recourse={recourse}
        rights={recourseAllowed}
        pendingWriteOff={writeOffs.some((request) => request.status === 'pending')}
        refusal={recourseRefusal}
      />
      {writeOffs.length > 0 ? (
        <Section title={t('recourse.requests.title')}>
          <WriteOffRequestsTable requests={writeOffs} rights={recourseAllowed} refusal={recourseRefusal} showInvoice={false} label={t('recourse.requests.sectionLabel')} />
        </Section>
      ) : null}
      {fees ? <FinancedFeesSection fees={fees} currency={invoice.currency} /> : null}
      <Grid columns={{ initial: '1', md: '2' }} gap="4">
        <Section title={t('invoices.detail.invoice')}>
          <Facts
            rows={[
              [
                t('invoices.card.amount'),
                <span key="amount" data-testid="detail-amount">
                  {formatMoney(invoice.amount, invoice.currency)}
                </span>,
              ],
              [t('invoices.card.issueDate'), formatDate(invoice.issueDate)],
              [t('invoices.card.dueDate'), formatDate(invoice.dueDate)],
              [t('invoices.card.createdAt'), formatDateTime(invoice.createdAt)],
              [t('invoices.form.description'), invoice.description],
              [t('invoices.detail.source'), t(`invoices.detail.sources.${invoice.source}`)],
              [
                t('invoices.card.factorAmount'),
                <span key="advance" data-testid="detail-factor-amount">
                  {formatMoney(invoice.factorAmount, invoice.currency)}
                </span>,
              ],
              [
                t('invoices.card.factorFee'),
                <span key="fee" data-testid="detail-factor-fee">
                  {formatMoney(invoice.factorFee, invoice.currency)}
                </span>,
              ],
              [t('invoices.detail.paidAmount'), formatMoney(invoice.paidAmount, invoice.currency)],
              [t('dilution.creditNotes.title'), formatMoney(invoice.creditedAmount, invoice.currency)],
              ...(invoice.rejectionReason ? [[t('invoices.detail.rejectionReason'), invoice.rejectionReason] as [string, string]] : []),
              ...(invoice.chargedBackAt
                ? [
                    [t('recourse.invoice.chargedBackAt'), formatDateTime(invoice.chargedBackAt)] as [string, string],
                    [t('recourse.invoice.chargeBackReason'), invoice.chargeBackReason ?? t('recourse.invoice.chargedBackByJob')] as [string, string],
                  ]
                : []),
              ...(invoice.writtenOffAt ? [[t('recourse.invoice.writtenOffAt'), formatDateTime(invoice.writtenOffAt)] as [string, string]] : []),
            ]}
          />
        </Section>
        <Flex direction="column" gap="4">
          <PartySection
            title={t('invoices.card.client')}
            to={`/clients/${client.id}`}
            party={client}
            rows={[
              ['IBAN', client.iban],
              [t('invoices.detail.advanceRate'), client.advanceRate === null ? null : `${client.advanceRate.toLocaleString('hr-HR')} %`],
              [t('invoices.detail.feeRate'), client.feeRate === null ? null : `${client.feeRate.toLocaleString('hr-HR')} %`],
              [t('invoices.detail.creditLimit'), client.creditLimit === null ? null : formatEur(client.creditLimit, { decimals: 0 })],
              [t('invoices.detail.usedCredit'), formatEur(client.usedCredit, { decimals: 0 })],
            ]}
          />
          <PartySection
            title={t('invoices.card.customer')}
            to={`/customers/${customer.id}`}
            party={customer}
            rows={[
              [
                t('invoices.detail.account'),
                <Text key="account" color={customer.accountBlocked ? 'red' : 'green'}>
                  {customer.accountBlocked ? t('invoices.detail.blocked', { reason: customer.blockageReason ?? '' }) : t('invoices.detail.active')}
                </Text>,
              ],
            ]}
          />
        </Flex>
      </Grid>
      <InvoiceDebtorSection invoiceId={invoice.id} open={(OFFERED_STATUSES as readonly string[]).includes(invoice.status)} data={debtor} />
      <DisputeSection disputes={dilution.disputes} canResolve={dilution.canResolve} actionData={dilutionData} />
      <CreditNotesSection
        creditNotes={dilution.creditNotes}
        creditedAmount={invoice.creditedAmount}
        canEnter={dilution.canCredit && invoice.status === 'financed'}
        today={today}
        actionData={dilutionData}
      />
      <DunningSection dunning={dunning} canHold={rights.holdDunning} hasPaymentReference={Boolean(invoice.paymentReference)} lastResult={holdResult} />
      <LinesSection invoice={invoice} />
      <FeeDocumentsSection documents={feeDocuments} />
      <Grid columns={{ initial: '1', md: '2' }} gap="4">
        <DocumentsSection invoice={invoice} />
        <MoneyMovementsSection invoice={invoice} />
      </Grid>
      <HistorySection invoice={invoice} />
    </Flex>
  );
}

/** The client's or the customer's card on the invoice: its name (a link to its page), its OIB, then what the invoice shows of it. */
function PartySection({
  title,
  to,
  party,
  rows,
}: {
  title: string;
  to: string;
  party: { companyName: string; oib: string };
  rows: Array<[label: string, value: React.ReactNode]>;
}) {
  const { t } = useTranslation();
  return (
    <Section title={title}>
      <Facts
        rows={[
          [
            t('invoices.detail.name'),
            <Link key="party" to={to}>
              {party.companyName}
            </Link>,
          ],
          ['OIB', party.oib],
          ...rows,
        ]}
      />
    </Section>
  );
}
