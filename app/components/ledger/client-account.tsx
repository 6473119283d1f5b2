import { getFormProps, getInputProps } from '@conform-to/react';
import { Badge, Button, Flex, Grid, Heading, Table, Text, TextField } from '@radix-ui/themes';
import { Form, Link, useNavigation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { Field, FormErrors } from '~/components/forms.tsx';
import { Options, SelectField, SubmitRow, TextAreaField } from '~/components/kit/fields.tsx';
import { Pager } from '~/components/kit/pager.tsx';
import { TableHead } from '~/components/kit/table-head.tsx';
import { useZodForm } from '~/components/kit/zod-form.ts';
import { Facts, Section } from '~/components/clients/party-detail.tsx';
import type { AccountActionData, loadClientAccount } from '~/ledger/account-page.server.ts';
import { adjustmentRequestSchema } from '~/ledger/schemas.ts';
import type { LedgerEntryDto } from '~/ledger/statement.server.ts';
import { formatDate, formatDateTime, formatEur } from '~/utils/format.ts';
import { IntentForm } from '~/components/kit/intent-form.tsx';

type Account = Awaited<ReturnType<typeof loadClientAccount>>;

/**
 * The client page's account (docs/screens.md, docs/money.md#the-clients-account):
 * its figures, the ledger with the running balance (paged in the URL), the
 * statement download (a plain GET form to the API) and the manual
 * adjustments. Every form works without JavaScript.
 */
export function ClientAccountSection({ clientId, account, meId, actionData }: { clientId: string; account: Account; meId: string; actionData?: AccountActionData | null }) {
  const { t } = useTranslation();
  const { summary, ledger } = account;
  return (
    <Section title={t('ledger.title')} id="account">
      <Flex direction="column" gap="4">
        <Facts
          rows={[
            [t('ledger.summary.balance'), formatEur(summary.balance), 'account-balance'],
            [t('ledger.summary.usedCredit'), formatEur(summary.usedCredit), 'account-used-credit'],
            [t('ledger.summary.reserve'), formatEur(summary.reserve), 'account-reserve'],
            [t('ledger.summary.feesThisYear', { year: summary.year }), formatEur(summary.feesThisYear)],
            [t('ledger.summary.feeVatThisYear', { year: summary.year }), formatEur(summary.feeVatThisYear)],
          ]}
        />
        <Text size="1" color="gray">
          {t('ledger.signNote')}
        </Text>
        <LedgerTable entries={ledger.entries} />
        <Pager page={ledger.page} pages={ledger.pages} hrefFor={(page) => `/clients/${clientId}?ledgerPage=${page}#account`} label={t('ledger.pagerLabel')} testId="ledger-pager" />
        <StatementForm clientId={clientId} defaults={account.statementDefaults} />
        {account.pendingAdjustments.length > 0 ? <PendingAdjustments account={account} meId={meId} actionData={actionData} /> : null}
        {account.canAdjust ? <AdjustmentForm account={account} actionData={actionData} /> : null}
      </Flex>
    </Section>
  );
}

function Reference({ entry }: { entry: LedgerEntryDto }) {
  const { t } = useTranslation();
  if (entry.kind === 'adjustment') return <Text>{entry.adjustmentReason ?? entry.description}</Text>;
  return (
    <Flex gap="2" wrap="wrap">
      {entry.invoiceId ? (
        <Link to={`/invoices/${entry.invoiceId}`} className="underline">
          {entry.invoiceNumber}
        </Link>
      ) : (
        <Text>{entry.description}</Text>
      )}
      {entry.einvoiceNumber ? <Text color="gray">{t('ledger.table.einvoice', { number: entry.einvoiceNumber })}</Text> : null}
      {entry.paymentId ? <Text color="gray">{t('ledger.table.payment')}</Text> : null}
      {entry.payoutId ? <Text color="gray">{t('ledger.table.payout')}</Text> : null}
    </Flex>
  );
}

function LedgerTable({ entries }: { entries: LedgerEntryDto[] }) {
  const { t } = useTranslation();
  if (entries.length === 0) {
    return (
      <Text as="p" color="gray" data-testid="ledger-empty">
        {t('ledger.table.empty')}
      </Text>
    );
  }
  return (
    <Table.Root size="1" data-testid="ledger-table" aria-label={t('ledger.table.label')}>
      <TableHead
        columns={[
          t('ledger.table.date'),
          t('ledger.table.kind'),
          t('ledger.table.reference'),
          { label: t('ledger.table.debit'), justify: 'end' },
          { label: t('ledger.table.credit'), justify: 'end' },
          { label: t('ledger.table.balance'), justify: 'end' },
        ]}
      />
      <Table.Body>
        {entries.map((entry) => (
          <Table.Row key={entry.id} data-testid="ledger-row">
            <Table.Cell>{formatDate(entry.bookedOn)}</Table.Cell>
            <Table.Cell>{t(`ledger.kinds.${entry.kind}`)}</Table.Cell>
            <Table.Cell>
              <Reference entry={entry} />
            </Table.Cell>
            <Table.Cell justify="end">{entry.debit === null ? '' : formatEur(entry.debit)}</Table.Cell>
            <Table.Cell justify="end">{entry.credit === null ? '' : formatEur(entry.credit)}</Table.Cell>
            <Table.Cell justify="end" data-testid="ledger-balance">
              {formatEur(entry.balance)}
            </Table.Cell>
          </Table.Row>
        ))}
      </Table.Body>
    </Table.Root>
  );
}

/** A GET form to the statement API: the browser downloads the file, with or without JavaScript. */
function StatementForm({ clientId, defaults }: { clientId: string; defaults: { from: string; to: string } }) {
  const { t } = useTranslation();
  return (
    <Form method="get" action={`/api/clients/${clientId}/statement`} reloadDocument aria-label={t('ledger.statement.title')} data-testid="statement-form">
      <Heading as="h3" size="3" mb="2">
        {t('ledger.statement.title')}
      </Heading>
      <Grid columns={{ initial: '1', sm: '4' }} gap="3" align="end">
        <Field label={t('ledger.statement.from')} inputProps={{ name: 'from', type: 'date', required: true, defaultValue: defaults.from, id: 'statement-from' }} />
        <Field label={t('ledger.statement.to')} inputProps={{ name: 'to', type: 'date', required: true, defaultValue: defaults.to, id: 'statement-to' }} />
        <SelectField label={t('ledger.statement.format')} name="format" id="statement-format" selectProps={{ defaultValue: 'pdf' }}>
          <option value="pdf">PDF</option>
          <option value="csv">CSV</option>
        </SelectField>
        <Button type="submit" data-testid="statement-download">
          {t('ledger.statement.download')}
        </Button>
      </Grid>
    </Form>
  );
}

function PendingAdjustments({ account, meId, actionData }: { account: Account; meId: string; actionData?: AccountActionData | null }) {
  const { t } = useTranslation();
  return (
    <Flex direction="column" gap="2" data-testid="pending-adjustments">
      <Heading as="h3" size="3">
        {t('ledger.adjustments.pendingTitle')}
      </Heading>
      {account.pendingAdjustments.map((adjustment) => {
        const own = adjustment.requestedById === meId;
        const error = actionData?.intent === 'adjustment-decision' && actionData.id === adjustment.id ? actionData.error : null;
        return (
          <Flex
            key={adjustment.id}
            direction="column"
            gap="2"
            p="3"
            style={{ border: '1px solid var(--gray-a6)', borderRadius: 'var(--radius-3)' }}
            data-testid="pending-adjustment"
          >
            <Flex gap="3" wrap="wrap" align="center">
              <Badge color="amber">{t('ledger.adjustments.statuses.pending')}</Badge>
              <Text weight="bold">{formatEur(adjustment.amount)}</Text>
              <Text>{adjustment.reason}</Text>
              {adjustment.invoiceNumber ? <Text color="gray">{adjustment.invoiceNumber}</Text> : null}
              <Text size="1" color="gray">
                {t('ledger.adjustments.requestedBy', { name: adjustment.requestedBy ?? '—', at: formatDateTime(adjustment.requestedAt) })}
              </Text>
            </Flex>
            <FormErrors errors={error ? [error] : null} />
            {!account.canAdjust ? null : own ? (
              <Text size="1" color="gray">
                {t('ledger.adjustments.ownRequest')}
              </Text>
            ) : (
              <Flex gap="3" wrap="wrap" align="end">
                <IntentForm intent="adjustment-approve" values={{ id: adjustment.id }}>
                  <Button type="submit" color="green" data-testid="adjustment-approve">
                    {t('ledger.adjustments.approve')}
                  </Button>
                </IntentForm>
                <IntentForm intent="adjustment-reject" values={{ id: adjustment.id }}>
                  <Flex gap="2" align="end">
                    <Flex direction="column" gap="1">
                      <Text as="label" size="2" htmlFor={`reject-reason-${adjustment.id}`}>
                        {t('ledger.adjustments.rejectReason')}
                      </Text>
                      <TextField.Root id={`reject-reason-${adjustment.id}`} name="reason" required maxLength={5000} />
                    </Flex>
                    <Button type="submit" color="red" variant="soft" data-testid="adjustment-reject">
                      {t('ledger.adjustments.reject')}
                    </Button>
                  </Flex>
                </IntentForm>
              </Flex>
            )}
          </Flex>
        );
      })}
    </Flex>
  );
}

function AdjustmentForm({ account, actionData }: { account: Account; actionData?: AccountActionData | null }) {
  const { t } = useTranslation();
  const lastResult = actionData?.intent === 'adjustment-request' ? actionData.result : null;
  const navigation = useNavigation();
  const busy = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'adjustment-request';
  const [form, fields] = useZodForm(adjustmentRequestSchema, { id: 'adjustment-request', lastResult });
  return (
    <Form method="post" {...getFormProps(form)} data-testid="adjustment-form">
      <input type="hidden" name="intent" value="adjustment-request" />
      <Heading as="h3" size="3" mb="2">
        {t('ledger.adjustments.requestTitle')}
      </Heading>
      <Flex direction="column" gap="3">
        <Text size="1" color="gray">
          {t('ledger.adjustments.hint')}
        </Text>
        <FormErrors errors={form.errors} />
        <Grid columns={{ initial: '1', sm: '2' }} gap="3">
          <Field label={t('ledger.adjustments.amount')} inputProps={{ ...getInputProps(fields.amount, { type: 'text' }), inputMode: 'decimal' }} errors={fields.amount.errors} />
          <SelectField label={t('ledger.adjustments.invoice')} meta={fields.invoiceId}>
            <option value="">{t('ledger.adjustments.noInvoice')}</option>
            <Options items={account.invoiceChoices} value={(invoice) => invoice.id} label={(invoice) => invoice.number} />
          </SelectField>
        </Grid>
        <TextAreaField label={t('ledger.adjustments.reason')} meta={fields.reason} />
        <SubmitRow busy={busy} submitLabel={t('ledger.adjustments.submit')} testId="adjustment-submit" />
      </Flex>
    </Form>
  );
}
