import { Button, Callout, Card, Flex, Heading, Table, Text, VisuallyHidden } from '@radix-ui/themes';
import { Form, Link, useLocation, useNavigation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { InlineSelect } from '~/components/kit/fields.tsx';
import { formatDate, formatDateTime, formatEur } from '~/utils/format.ts';
import { OverdueBadge, PaymentStatusBadge, PayoutStatusBadge } from './display.tsx';
import type { PayableOption } from './record-payment.tsx';
import { TableHead } from '~/components/kit/table-head.tsx';
import { IntentForm } from '~/components/kit/intent-form.tsx';

/**
 * The lists of /payments: payments with their actions, payouts with the
 * pain.001 export, the bank statement import and its unmatched entries.
 * Every action is a plain form post with an `intent` and the page's URL to
 * come back to, so it works without JavaScript.
 */

export interface PaymentRowData {
  id: string;
  invoiceNumber: string;
  clientName: string;
  customerName: string;
  amount: number;
  paymentMethod: string;
  status: string;
  dueDate: string;
  reference: string | null;
  notes: string | null;
  createdAt: string;
  processedAt: string | null;
  overdue: boolean;
  invoiceAmount: number;
  invoicePaidAmount: number;
}

function ReturnTo() {
  const location = useLocation();
  return <input type="hidden" name="returnTo" value={`${location.pathname}${location.search}`} />;
}

function ActionButton({ intent, id, label, colour }: { intent: string; id: string; label: string; colour?: 'green' | 'red' | 'gray' }) {
  const navigation = useNavigation();
  const busy = navigation.state === 'submitting' && navigation.formData?.get('id') === id && navigation.formData?.get('intent') === intent;
  return (
    <IntentForm intent={intent} values={{ id }}>
      <ReturnTo />
      <Button type="submit" size="1" variant={intent === 'confirm' ? 'solid' : 'soft'} color={colour} disabled={busy}>
        {label}
      </Button>
    </IntentForm>
  );
}

export function PaymentsTable({ payments, canDecide }: { payments: PaymentRowData[]; canDecide: boolean }) {
  const { t } = useTranslation();
  return (
    <Table.Root variant="surface" data-testid="payments-table">
      <TableHead
        columns={[
          t('payments.columns.invoice'),
          t('payments.columns.parties'),
          { label: t('payments.columns.amount'), justify: 'end' },
          { label: t('payments.columns.paidOfAmount'), justify: 'end' },
          t('payments.columns.method'),
          t('payments.columns.status'),
          t('payments.columns.dueDate'),
          t('payments.columns.reference'),
          t('payments.columns.dates'),
          t('payments.columns.actions'),
        ]}
      />
      <Table.Body>
        {payments.map((payment) => (
          <Table.Row key={payment.id} data-testid="payment-row" data-payment-id={payment.id}>
            <Table.RowHeaderCell>
              <Text weight="medium">{payment.invoiceNumber}</Text>
            </Table.RowHeaderCell>
            <Table.Cell>
              <Flex direction="column">
                <Text size="2">{payment.customerName}</Text>
                <Text size="1" color="gray">
                  {payment.clientName}
                </Text>
              </Flex>
            </Table.Cell>
            <Table.Cell justify="end" data-testid="payment-amount">
              {formatEur(payment.amount)}
            </Table.Cell>
            <Table.Cell justify="end" data-testid="paid-of-amount">
              <Text size="2">
                {formatEur(payment.invoicePaidAmount)} / {formatEur(payment.invoiceAmount)}
              </Text>
            </Table.Cell>
            <Table.Cell>{t(`payments.method.${payment.paymentMethod}`, { defaultValue: payment.paymentMethod })}</Table.Cell>
            <Table.Cell>
              <Flex gap="1" wrap="wrap">
                <PaymentStatusBadge status={payment.status} />
                {payment.overdue ? <OverdueBadge /> : null}
              </Flex>
            </Table.Cell>
            <Table.Cell>{formatDate(payment.dueDate)}</Table.Cell>
            <Table.Cell>
              <Flex direction="column">
                <Text size="2">{payment.reference ?? '—'}</Text>
                {payment.notes ? (
                  <Text size="1" color="gray">
                    {payment.notes}
                  </Text>
                ) : null}
              </Flex>
            </Table.Cell>
            <Table.Cell>
              <Flex direction="column">
                <Text size="1">{t('payments.createdAt', { date: formatDateTime(payment.createdAt) })}</Text>
                {payment.processedAt ? (
                  <Text size="1" color="gray">
                    {t('payments.processedAt', { date: formatDateTime(payment.processedAt) })}
                  </Text>
                ) : null}
              </Flex>
            </Table.Cell>
            <Table.Cell>
              {canDecide ? (
                <Flex gap="2">
                  {payment.status === 'pending' ? (
                    <>
                      <ActionButton intent="confirm" id={payment.id} label={t('payments.actions.confirm')} colour="green" />
                      <ActionButton intent="fail" id={payment.id} label={t('payments.actions.fail')} colour="red" />
                    </>
                  ) : null}
                  {payment.status === 'confirmed' ? <ActionButton intent="refund" id={payment.id} label={t('payments.actions.refund')} colour="gray" /> : null}
                </Flex>
              ) : null}
            </Table.Cell>
          </Table.Row>
        ))}
      </Table.Body>
    </Table.Root>
  );
}

export interface PayoutRowData {
  id: string;
  kind: string;
  clientName: string;
  invoiceNumber: string;
  amount: number;
  iban: string;
  status: string;
  exportBatchId: string | null;
  exportedAt: string | null;
  createdAt: string;
}

const PAYOUT_FILTERS = ['pending', 'exported', 'paid', 'cancelled', 'all'] as const;

/** The payouts tab: a status filter, and one form whose checkboxes choose what goes into the bank file (native post: the file downloads). */
export function PayoutsPanel({ payouts, status, canExport, pendingTotal }: { payouts: PayoutRowData[]; status: string; canExport: boolean; pendingTotal: number }) {
  const { t } = useTranslation();
  const location = useLocation();
  const selectable = (payout: PayoutRowData) => canExport && (payout.status === 'pending' || payout.status === 'exported');
  return (
    <Flex direction="column" gap="3">
      <Flex gap="2" wrap="wrap" align="center" role="group" aria-label={t('payments.payouts.filterLabel')}>
        {PAYOUT_FILTERS.map((value) => {
          const params = new URLSearchParams(location.search);
          params.set('tab', 'payouts');
          params.set('payoutStatus', value);
          params.delete('page');
          return (
            <Button key={value} asChild size="1" variant={status === value ? 'solid' : 'soft'}>
              <Link to={`?${params}`} aria-current={status === value ? 'true' : undefined}>
                {t(`payments.payouts.filter.${value}`)}
              </Link>
            </Button>
          );
        })}
        <Text size="2" color="gray" data-testid="payouts-pending-total">
          {t('payments.payouts.pendingTotal', { amount: formatEur(pendingTotal) })}
        </Text>
      </Flex>
      {payouts.length === 0 ? (
        <Card>
          <Text color="gray">{t('payments.payouts.empty')}</Text>
        </Card>
      ) : (
        <Form method="post" reloadDocument id="payouts-form">
          <ReturnTo />
          <Table.Root variant="surface" data-testid="payouts-table">
            <TableHead
              columns={[
                { label: <VisuallyHidden>{t('payments.payouts.select')}</VisuallyHidden> },
                t('payments.payouts.kindLabel'),
                t('payments.payouts.client'),
                t('payments.columns.invoice'),
                { label: t('payments.columns.amount'), justify: 'end' },
                'IBAN',
                t('payments.columns.status'),
                t('payments.payouts.batch'),
              ]}
            />
            <Table.Body>
              {payouts.map((payout) => (
                <Table.Row key={payout.id} data-testid="payout-row">
                  <Table.Cell>
                    {selectable(payout) ? (
                      <input type="checkbox" name="ids" value={payout.id} aria-label={t('payments.payouts.selectOne', { number: payout.invoiceNumber })} />
                    ) : null}
                  </Table.Cell>
                  <Table.Cell>{t(`payments.payouts.kind.${payout.kind}`)}</Table.Cell>
                  <Table.Cell>{payout.clientName}</Table.Cell>
                  <Table.Cell>{payout.invoiceNumber}</Table.Cell>
                  <Table.Cell justify="end">{formatEur(payout.amount)}</Table.Cell>
                  <Table.Cell>
                    <Text size="1" style={{ fontFamily: 'var(--code-font-family)' }}>
                      {payout.iban}
                    </Text>
                  </Table.Cell>
                  <Table.Cell>
                    <PayoutStatusBadge status={payout.status} />
                  </Table.Cell>
                  <Table.Cell>
                    <Text size="1" color="gray">
                      {payout.exportBatchId ?? '—'}
                      {payout.exportedAt ? ` · ${formatDateTime(payout.exportedAt)}` : ''}
                    </Text>
                  </Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
          {canExport ? (
            <Flex gap="3" mt="3" justify="end">
              <Button type="submit" name="intent" value="markPaid" variant="soft">
                {t('payments.payouts.markPaid')}
              </Button>
              {/* The file comes from a resource route: a page action's Response would be rendered as data. */}
              <Button type="submit" name="intent" value="export" formAction="/payments/export">
                {t('payments.payouts.export')}
              </Button>
            </Flex>
          ) : null}
        </Form>
      )}
    </Flex>
  );
}

export interface EntryRowData {
  id: string;
  statementRef: string;
  amount: number;
  bookingDate: string | null;
  debtorName: string | null;
  debtorIban: string | null;
  remittance: string | null;
  reason: string | null;
}

export interface ImportSummary {
  matched: number;
  unmatched: number;
  duplicates: number;
}

/** The bank statement tab: upload a camt.053, see the counts, assign what did not match. */
export function BankPanel({ entries, invoices, result }: { entries: EntryRowData[]; invoices: PayableOption[]; result: ImportSummary | null }) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const importing = navigation.state === 'submitting' && navigation.formEncType === 'multipart/form-data';
  return (
    <Flex direction="column" gap="4">
      <Card size="2">
        <Form method="post" encType="multipart/form-data">
          <ReturnTo />
          <input type="hidden" name="intent" value="import" />
          <Flex direction="column" gap="2">
            <Heading as="h3" size="3">
              {t('payments.bank.importTitle')}
            </Heading>
            <Text size="2" color="gray">
              {t('payments.bank.importHint')}
            </Text>
            <Flex gap="3" align="center" wrap="wrap">
              <input type="file" name="file" accept=".xml,application/xml,text/xml" required aria-label={t('payments.bank.file')} />
              <Button type="submit" disabled={importing}>
                {importing ? t('payments.bank.importing') : t('payments.bank.import')}
              </Button>
            </Flex>
          </Flex>
        </Form>
      </Card>
      {result ? (
        <Callout.Root color="green" data-testid="import-result">
          <Callout.Text>{t('payments.bank.result', { ...result })}</Callout.Text>
        </Callout.Root>
      ) : null}
      <Heading as="h3" size="3">
        {t('payments.bank.unmatchedTitle', { count: entries.length })}
      </Heading>
      {entries.length === 0 ? (
        <Card>
          <Text color="gray">{t('payments.bank.noUnmatched')}</Text>
        </Card>
      ) : (
        <Table.Root variant="surface" data-testid="unmatched-table">
          <TableHead
            columns={[
              t('payments.bank.bookingDate'),
              { label: t('payments.columns.amount'), justify: 'end' },
              t('payments.bank.payer'),
              t('payments.bank.remittance'),
              t('payments.bank.assign'),
            ]}
          />
          <Table.Body>
            {entries.map((entry) => (
              <Table.Row key={entry.id} data-testid="unmatched-row">
                <Table.Cell>
                  <Flex direction="column">
                    <Text size="2">{formatDate(entry.bookingDate)}</Text>
                    <Text size="1" color="gray">
                      {entry.statementRef}
                    </Text>
                  </Flex>
                </Table.Cell>
                <Table.Cell justify="end">{formatEur(entry.amount)}</Table.Cell>
                <Table.Cell>
                  <Flex direction="column">
                    <Text size="2">{entry.debtorName ?? '—'}</Text>
                    <Text size="1" color="gray">
                      {entry.debtorIban ?? ''}
                    </Text>
                  </Flex>
                </Table.Cell>
                <Table.Cell>
                  <Flex direction="column">
                    <Text size="2">{entry.remittance ?? '—'}</Text>
                    {entry.reason ? (
                      <Text size="1" color="amber">
                        {entry.reason}
                      </Text>
                    ) : null}
                  </Flex>
                </Table.Cell>
                <Table.Cell>
                  <Form method="post">
                    <ReturnTo />
                    <input type="hidden" name="intent" value="assign" />
                    <input type="hidden" name="id" value={entry.id} />
                    <InlineSelect label={t('payments.bank.assignTo')} name="invoiceId" required submitLabel={t('payments.bank.assign')} gap="2">
                      <option value="">{t('payments.fields.chooseInvoice')}</option>
                      {invoices
                        .filter((invoice) => invoice.openAmount >= entry.amount)
                        .map((invoice) => (
                          <option key={invoice.id} value={invoice.id}>
                            {t('payments.fields.invoiceOption', { number: invoice.invoiceNumber, customer: invoice.customerName, open: formatEur(invoice.openAmount) })}
                          </option>
                        ))}
                    </InlineSelect>
                  </Form>
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      )}
    </Flex>
  );
}
