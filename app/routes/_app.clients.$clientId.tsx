import { Flex, Grid } from '@radix-ui/themes';
import { pageTitle } from '~/utils/meta.ts';
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { clientIp } from '~/auth/login.server.ts';
import { can, requirePermission } from '~/auth/permissions.server.ts';
import { getClient, updateClient } from '~/clients/clients.server.ts';
import { handleUpdate } from '~/clients/party-page.server.ts';
import { CLIENT_FIELDS, clientEditFormSchema } from '~/clients/schemas.ts';
import { ClientStatusBadge, CreditUsageBar, RiskScore } from '~/components/clients/display.tsx';
import { ActivitySection, CompanySection, PartyHeader, DocumentsSection, Facts, InvoicesSection, RiskHistorySection, Section } from '~/components/clients/party-detail.tsx';
import { EditPartyForm, type PartyActionData } from '~/components/clients/party-form.tsx';
import { AgreementSection, type AgreementActionData } from '~/components/agreements/agreement-section.tsx';
import { KycPanel } from '~/components/kyc/kyc-panel.tsx';
import { ClientAccountSection } from '~/components/ledger/client-account.tsx';
import { DilutionSection } from '~/components/dilution/dilution-facts.tsx';
import { handleAccountAction, loadClientAccount, type AccountActionData } from '~/ledger/account-page.server.ts';
import { listAgreements } from '~/agreements/agreements.server.ts';
import { handleAgreementPost } from '~/agreements/page-actions.server.ts';
import { businessDay } from '~/utils/business-time.ts';
import { getKycApplication } from '~/onboarding/kyc-decision.server.ts';
import { handleKycDecision, type KycRefusalData } from '~/onboarding/kyc-page.server.ts';
import { formatDateTime, formatEur } from '~/utils/format.ts';
import { readFormData } from '~/utils/form-data.server.ts';

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageTitle(matches, 'clients.detail.metaTitle', data?.client.companyName);

function notFound(): never {
  throw new Response('Not Found', { status: 404, statusText: 'Not Found' });
}

/** A client's agreement, limit and usage, invoices, documents, risk history and activity (issue #4). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requirePermission(request, 'read:all');
  const client = await getClient(params.clientId ?? '').catch((error) => {
    if (error instanceof Response && error.status === 404) notFound();
    throw error;
  });
  return json({
    client,
    kyc: await getKycApplication(client.id),
    canDecideKyc: can(user, 'decide:kyc'),
    account: await loadClientAccount(request, client.id, user),
    meId: user.id,
    agreements: await listAgreements(client.id),
    canManageAgreement: can(user, 'manage:agreement'),
    showAgreementForm: new URL(request.url).searchParams.get('agreement') === 'edit',
    today: businessDay(),
  });
}

/** The edit form (PUT semantics: every field posted, blanks clear) and the KYC panel's decisions (intent=kyc). */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const id = params.clientId ?? '';
  const formData = await readFormData(request);
  if (String(formData.get('intent') ?? '').startsWith('agreement-')) {
    const actor = await requirePermission(request, 'manage:agreement');
    return handleAgreementPost(formData, { actor, ip: clientIp(context), clientId: id });
  }
  if (formData.get('intent') === 'kyc') {
    const actor = await requirePermission(request, 'decide:kyc');
    return handleKycDecision(formData, { actor, ip: clientIp(context), back: `/clients/${id}` });
  }
  if (String(formData.get('intent') ?? '').startsWith('adjustment-')) {
    const actor = await requirePermission(request, 'adjust:ledger');
    return handleAccountAction(formData, { actor, ip: clientIp(context), clientId: id });
  }
  const actor = await requirePermission(request, 'update:client');
  return handleUpdate(formData, {
    schema: clientEditFormSchema,
    names: [...CLIENT_FIELDS, 'status'],
    update: (input) => updateClient({ actor, id, input, ip: clientIp(context) }),
    detailPath: `/clients/${id}`,
    toast: { title: 'clients.toast.successTitle', description: 'clients.detail.updated' },
  });
}

export default function ClientDetailPage() {
  const { client, kyc, canDecideKyc, account, meId, agreements, canManageAgreement, showAgreementForm, today } = useLoaderData<typeof loader>();
  const actionData = useActionData<PartyActionData | KycRefusalData | AccountActionData | AgreementActionData>();
  const { t } = useTranslation();
  const editing = actionData?.intent === 'update' ? actionData.result : undefined;
  const agreementResult = actionData?.intent === 'agreement-create' || actionData?.intent === 'agreement-revise' ? actionData.result : undefined;
  const kycRefusal = actionData?.intent === 'kyc' ? actionData : null;
  const accountData = actionData?.intent === 'adjustment-request' || actionData?.intent === 'adjustment-decision' ? actionData : null;
  const defaults = Object.fromEntries([...CLIENT_FIELDS, 'status'].map((field) => [field, (client as Record<string, unknown>)[field] ?? ''])) as Record<string, string>;
  return (
    <Flex direction="column" gap="4">
      <PartyHeader back={{ to: '/clients', label: t('clients.backToList') }} title={client.companyName} badge={<ClientStatusBadge status={client.status} />} />
      {kyc ? <KycPanel application={kyc} canDecide={canDecideKyc} refusal={kycRefusal} /> : null}
      <Grid columns={{ initial: '1', md: '2' }} gap="4">
        <CompanySection
          party={client}
          rows={[
            [t('clients.detail.onboardingStatus'), t(`clients.onboarding.${client.onboardingStatus}`)],
            [t('clients.detail.riskScore'), <RiskScore key="risk" score={client.riskScore} />],
            [t('clients.detail.createdAt'), formatDateTime(client.createdAt)],
          ]}
        />
        <Flex direction="column" gap="4">
          <Section title={t('clients.detail.limit')}>
            <Flex direction="column" gap="3">
              <Facts
                rows={[
                  [t('clients.detail.creditLimit'), client.creditLimit === null ? t('clients.detail.noLimit') : formatEur(client.creditLimit, { decimals: 0 })],
                  [t('clients.detail.usedCredit'), formatEur(client.usedCredit, { decimals: 0 })],
                  [t('clients.detail.available'), client.availableCredit === null ? null : formatEur(client.availableCredit, { decimals: 0 })],
                  [t('clients.detail.utilisation'), client.utilisation === null ? null : `${client.utilisation.toLocaleString('hr-HR')} %`],
                ]}
              />
              <CreditUsageBar used={client.usedCredit} limit={client.creditLimit} />
            </Flex>
          </Section>
        </Flex>
      </Grid>
      <ClientAccountSection clientId={client.id} account={account} meId={meId} actionData={accountData as AccountActionData | null} />
      <AgreementSection
        agreements={agreements}
        inForce={client.agreement}
        canManage={canManageAgreement}
        today={today}
        showPanel={showAgreementForm || agreementResult !== undefined}
        lastResult={agreementResult}
        panelHref={`/clients/${client.id}?agreement=edit#agreement`}
        closeHref={`/clients/${client.id}#agreement`}
      />
      <InvoicesSection invoices={client.invoices} count={client.invoiceCount} counterparty="customer" />
      <DilutionSection dilution={client.dilution} />
      <DocumentsSection documents={client.documents} />
      <RiskHistorySection history={client.riskHistory} />
      <ActivitySection activity={client.activity} />
      <Section title={t('clients.detail.edit')} id="edit">
        <EditPartyForm area="clients" schema={clientEditFormSchema} names={CLIENT_FIELDS} defaultValue={defaults} lastResult={editing} withStatus />
      </Section>
    </Flex>
  );
}
