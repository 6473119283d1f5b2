import { CheckCircledIcon } from '@radix-ui/react-icons';
import { Callout } from '@radix-ui/themes';
import { Form, useNavigation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import type { InvoiceDto } from '~/invoices/invoice-dto.server.ts';
import type { DecisionRefusal } from '~/invoices/page.server.ts';
import { formatDate, formatDateTime } from '~/utils/format.ts';
import { useRefusalText } from '~/components/refusal-text.ts';
import { SubmitRow, TextAreaField } from '~/components/kit/fields.tsx';
import { FactList, LightBadge, LightBox, LightButton, LightCard, LightHeading, LightText, LinkButton, Stack, type FactText } from '~/components/kit/light.tsx';
import { ValueBadge } from '~/components/kit/value-badge.tsx';

/** The /invoices card (docs/screens.md), its badges and its decision buttons (docs/lifecycle.md#invoices). */

export type InvoiceStatus = InvoiceDto['status'];
// Every status has its colour (the type fails for a missing one); the badge of every list and page of invoices.
const STATUS_COLOURS = {
  pending: 'gray',
  verified: 'blue',
  approved: 'indigo',
  financed: 'amber',
  paid: 'green',
  rejected: 'red',
  charged_back: 'orange',
  written_off: 'crimson',
} as const satisfies Record<InvoiceStatus, string>;

export interface DecisionRights {
  verify: boolean;
  approve: boolean;
  finance: boolean;
  reject: boolean;
}

/** Money of an invoice: hr-HR with 2 decimals in the invoice's own currency (docs/screens.md). */
export function formatMoney(amount: number | null | undefined, currency = 'EUR'): string {
  if (amount === null || amount === undefined) return '';
  return moneyFormatter(currency).format(amount);
}

// Building an Intl formatter costs far more than using one: a page of cards formats hundreds of amounts.
const moneyFormatters = new Map<string, Intl.NumberFormat>();
function moneyFormatter(currency: string): Intl.NumberFormat {
  let formatter = moneyFormatters.get(currency);
  if (!formatter) {
    formatter = new Intl.NumberFormat('hr-HR', { style: 'currency', currency, minimumFractionDigits: 2, maximumFractionDigits: 2 });
    moneyFormatters.set(currency, formatter);
  }
  return formatter;
}

export function InvoiceStatusBadge({ status }: { status: InvoiceStatus }) {
  return <ValueBadge value={status} colours={STATUS_COLOURS} labels="invoices.status" testId="invoice-status" />;
}

export function VerifiedBadge() {
  const { t } = useTranslation();
  return (
    <LightBadge color="green" variant="outline" data-testid="verified-badge">
      <CheckCircledIcon /> {t('invoices.card.verifiedBadge')}
    </LightBadge>
  );
}

type CardInvoice = Pick<
  InvoiceDto,
  | 'id'
  | 'invoiceNumber'
  | 'status'
  | 'verificationStatus'
  | 'amount'
  | 'currency'
  | 'issueDate'
  | 'dueDate'
  | 'createdAt'
  | 'description'
  | 'clientName'
  | 'customerName'
  | 'factorAmount'
  | 'factorFee'
>;

export function InvoiceCard({
  invoice,
  rights,
  preview,
  refusal,
}: {
  invoice: CardInvoice;
  rights: DecisionRights;
  preview?: { factorAmount: number; factorFee: number };
  refusal?: DecisionRefusal | null;
}) {
  const { t } = useTranslation();
  const rows: FactText[] = [
    { label: t('invoices.card.amount'), value: formatMoney(invoice.amount, invoice.currency), 'data-testid': 'invoice-amount' },
    { label: t('invoices.card.issueDate'), value: formatDate(invoice.issueDate), 'data-testid': 'invoice-issue-date' },
    { label: t('invoices.card.dueDate'), value: formatDate(invoice.dueDate), 'data-testid': 'invoice-due-date' },
    { label: t('invoices.card.createdAt'), value: formatDateTime(invoice.createdAt), 'data-testid': 'invoice-created-at' },
    { label: t('invoices.card.client'), value: invoice.clientName, 'data-testid': 'invoice-client' },
    { label: t('invoices.card.customer'), value: invoice.customerName, 'data-testid': 'invoice-customer' },
  ];
  if (invoice.factorAmount !== null)
    rows.push({ label: t('invoices.card.factorAmount'), value: formatMoney(invoice.factorAmount, invoice.currency), 'data-testid': 'invoice-factor-amount' });
  if (invoice.factorFee !== null) rows.push({ label: t('invoices.card.factorFee'), value: formatMoney(invoice.factorFee, invoice.currency), 'data-testid': 'invoice-factor-fee' });
  return (
    <LightCard size="2" data-testid="invoice-card" data-invoice-number={invoice.invoiceNumber}>
      <Stack direction="column" gap="3">
        <Stack justify="between" align="start" gap="2" wrap="wrap">
          <LightHeading as="h3" size="3">
            {invoice.invoiceNumber}
          </LightHeading>
          <Stack gap="1" wrap="wrap">
            <InvoiceStatusBadge status={invoice.status} />
            {invoice.verificationStatus === 'verified' ? <VerifiedBadge /> : null}
          </Stack>
        </Stack>
        <FactList size="1" labelWidth="120px" rows={rows} />
        {invoice.description ? (
          <LightText size="2" color="gray" data-testid="invoice-description">
            {invoice.description}
          </LightText>
        ) : null}
        {refusal ? <RefusalCallout refusal={refusal} /> : null}
        <Stack gap="2" wrap="wrap" align="start">
          <LinkButton to={`/invoices/${invoice.id}`} variant="soft" size="1">
            {t('invoices.actions.show')}
          </LinkButton>
          <DecisionButtons invoice={invoice} rights={rights} preview={preview} refusal={refusal} />
        </Stack>
      </Stack>
    </LightCard>
  );
}

export function RefusalCallout({ refusal }: { refusal: DecisionRefusal }) {
  const { t } = useTranslation();
  const showRefusal = useRefusalText();
  return (
    <Callout.Root color="red" size="1" role="alert" data-testid="decision-refusal">
      <Callout.Text>
        {t(`invoices.toast.${refusal.intent}Failed`)}: {showRefusal(refusal.message)}
      </Callout.Text>
    </Callout.Root>
  );
}

// The frame of a decision's form under its disclosure (a Radix Box with mt 2, p 2), one object for every card.
const DISCLOSURE_STYLE = { border: '1px solid var(--gray-a6)', borderRadius: 'var(--radius-2)' };

/** One plain POST form per decision (works without JavaScript); the server checks the role and the rules again. */
function DecisionForm({ id, intent, children }: { id: string; intent: string; children: React.ReactNode }) {
  return (
    <Form method="post" preventScrollReset>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="id" value={id} />
      {children}
    </Form>
  );
}

/**
 * Verificiraj on pending, Odobri on verified, Financiraj (after a
 * confirmation naming the advance and fee) on approved, Odbij (with a
 * required reason) on pending/verified/approved. The confirmations are
 * <details> disclosures, so they need no JavaScript either.
 */
export function DecisionButtons({
  invoice,
  rights,
  preview,
  refusal,
}: {
  invoice: Pick<CardInvoice, 'id' | 'status' | 'currency' | 'invoiceNumber'>;
  rights: DecisionRights;
  preview?: { factorAmount: number; factorFee: number };
  refusal?: DecisionRefusal | null;
}) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const busy = navigation.state === 'submitting' && navigation.formData?.get('id') === invoice.id;
  const { status, id } = invoice;
  // The four-eyes checks before financing: a pending invoice is verified, a verified one approved (by someone else).
  const check = status === 'pending' ? 'verify' : status === 'verified' ? 'approve' : null;
  const canReject = rights.reject && (status === 'pending' || status === 'verified' || status === 'approved');
  return (
    <>
      {check && rights[check] ? (
        <DecisionForm id={id} intent={check}>
          <LightButton size="1" disabled={busy}>
            {t(`invoices.actions.${check}`)}
          </LightButton>
        </DecisionForm>
      ) : null}
      {rights.finance && status === 'approved' ? (
        <details className="invoice-disclosure">
          <LightButton as="summary" size="1" color="green">
            {t('invoices.actions.finance')}
          </LightButton>
          <LightBox className="rt-r-p-2 rt-r-mt-2" style={DISCLOSURE_STYLE}>
            <DecisionForm id={id} intent="finance">
              <Stack direction="column" gap="2">
                <LightText size="2">{t('invoices.finance.confirm', { number: invoice.invoiceNumber })}</LightText>
                {preview ? (
                  <LightText size="2" data-testid="finance-preview">
                    {t('invoices.finance.preview', {
                      advance: formatMoney(preview.factorAmount, invoice.currency),
                      fee: formatMoney(preview.factorFee, invoice.currency),
                    })}
                  </LightText>
                ) : null}
                <LightButton size="1" color="green" disabled={busy}>
                  {t('invoices.finance.submit')}
                </LightButton>
              </Stack>
            </DecisionForm>
          </LightBox>
        </details>
      ) : null}
      {canReject ? (
        <details className="invoice-disclosure" open={refusal?.intent === 'reject' && refusal.id === id ? true : undefined}>
          <LightButton as="summary" size="1" color="red" variant="soft">
            {t('invoices.actions.reject')}
          </LightButton>
          <LightBox className="rt-r-p-2 rt-r-mt-2" style={DISCLOSURE_STYLE}>
            <DecisionForm id={id} intent="reject">
              <Stack direction="column" gap="2">
                <TextAreaField
                  label={t('invoices.reject.reason')}
                  name="reason"
                  id={`reason-${id}`}
                  rows={2}
                  textAreaProps={{ required: true, maxLength: 5000, defaultValue: refusal?.id === id ? (refusal.reason ?? '') : '' }}
                />
                <SubmitRow submitLabel={t('invoices.reject.submit')} busy={busy} justify="start" size="1" color="red" />
              </Stack>
            </DecisionForm>
          </LightBox>
        </details>
      ) : null}
    </>
  );
}
