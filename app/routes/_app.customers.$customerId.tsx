import { Flex, Grid } from '@radix-ui/themes';
import { pageTitle } from '~/utils/meta.ts';
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { clientIp } from '~/auth/login.server.ts';
import { can, requirePermission } from '~/auth/permissions.server.ts';
import { DebtorLimitSection } from '~/components/limits/debtor-limit.tsx';
import { customerLimitRequests } from '~/limits/credit-limits.server.ts';
import { handleUpdate } from '~/clients/party-page.server.ts';
import { CustomerStatusBadge, RiskScore } from '~/components/clients/display.tsx';
import { ActivitySection, CompanySection, PartyHeader, DocumentsSection, Facts, InvoicesSection, RiskHistorySection, Section } from '~/components/clients/party-detail.tsx';
import { EditPartyForm, type PartyActionData } from '~/components/clients/party-form.tsx';
import { FinaCheckButton } from '~/components/integrations/fina-check-button.tsx';
import { DilutionSection } from '~/components/dilution/dilution-facts.tsx';
import { getCustomer, updateCustomer } from '~/customers/customers.server.ts';
import { CUSTOMER_FIELDS, customerEditFormSchema } from '~/customers/schemas.ts';
import { formatDateTime } from '~/utils/format.ts';
import { DebtorLinksSection } from '~/components/debtors/debtor-links.tsx';
import { customerDebtorLinks } from '~/debtors/page.server.ts';
import { readFormData } from '~/utils/form-data.server.ts';

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageTitle(matches, 'customers.detail.metaTitle', data?.customer.companyName);

/** A customer's data, FINA blockage status, debtor limit and its requests, invoices as debtor, documents, risk history and activity. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requirePermission(request, 'read:all');
  const customer = await getCustomer(params.customerId ?? '').catch((error) => {
    if (error instanceof Response && error.status === 404) throw new Response('Not Found', { status: 404, statusText: 'Not Found' });
    throw error;
  });
  const limitRequests = await customerLimitRequests(customer.id);
  const debtorLinks = await customerDebtorLinks(customer.id, request, user);
  return json({ customer, limitRequests, canRequestLimit: can(user, 'create:credit_limit'), debtorLinks });
}

/** The edit form: PUT semantics through the page (every field posted; blanks clear). */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const actor = await requirePermission(request, 'update:customer');
  const id = params.customerId ?? '';
  const formData = await readFormData(request);
  return handleUpdate(formData, {
    schema: customerEditFormSchema,
    names: CUSTOMER_FIELDS,
    update: (input) => updateCustomer({ actor, id, input, ip: clientIp(context) }),
    detailPath: `/customers/${id}`,
    toast: { title: 'clients.toast.successTitle', description: 'customers.detail.updated' },
  });
}

export default function CustomerDetailPage() {
  const { customer, limitRequests, canRequestLimit, debtorLinks } = useLoaderData<typeof loader>();
  const actionData = useActionData<PartyActionData>();
  const { t } = useTranslation();
  const editing = actionData?.intent === 'update' ? actionData.result : undefined;
  const defaults = Object.fromEntries(CUSTOMER_FIELDS.map((field) => [field, (customer as Record<string, unknown>)[field] ?? ''])) as Record<string, string>;
  return (
    <Flex direction="column" gap="4">
      <PartyHeader
        back={{ to: '/customers', label: t('customers.backToList') }}
        title={customer.companyName}
        badge={<CustomerStatusBadge accountBlocked={customer.accountBlocked} />}
      />
      <Grid columns={{ initial: '1', md: '2' }} gap="4">
        <CompanySection
          party={customer}
          rows={[
            [t('clients.detail.riskScore'), <RiskScore key="risk" score={customer.riskScore} />],
            [t('clients.detail.createdAt'), formatDateTime(customer.createdAt)],
          ]}
        />
        {/* 'FINA provjera' runs the check and comes back here (#fina) with a toast. */}
        <Section title={t('customers.fina.title')} id="fina">
          <Flex direction="column" gap="3">
            <Facts
              rows={[
                [t('customers.fina.lastCheck'), customer.lastFinaCheck ? formatDateTime(customer.lastFinaCheck) : t('customers.fina.never')],
                [t('customers.fina.accountBlocked'), <CustomerStatusBadge key="blocked" accountBlocked={customer.accountBlocked} />],
                [t('customers.fina.reason'), customer.blockageReason],
              ]}
            />
            <FinaCheckButton customerId={customer.id} redirectTo={`/customers/${customer.id}#fina`} />
          </Flex>
        </Section>
      </Grid>
      <DebtorLimitSection customer={customer} requests={limitRequests} requestHref={canRequestLimit ? `/limits?kind=customer&new=1&for=customer&customer=${customer.id}` : null} />
      <DebtorLinksSection customerId={customer.id} data={debtorLinks} />
      <InvoicesSection invoices={customer.invoices} count={customer.invoiceCount} counterparty="client" />
      <DilutionSection dilution={customer.dilution} />
      <DocumentsSection documents={customer.documents} />
      <RiskHistorySection history={customer.riskHistory} />
      <ActivitySection activity={customer.activity} />
      <Section title={t('clients.detail.edit')} id="edit">
        <EditPartyForm area="customers" schema={customerEditFormSchema} names={CUSTOMER_FIELDS} defaultValue={defaults} lastResult={editing} />
      </Section>
    </Flex>
  );
}
