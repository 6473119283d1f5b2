import { Badge, Flex, Table, Text } from '@radix-ui/themes';
import { Link } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { Section } from '~/components/clients/party-detail.tsx';
import type { InvoiceDetailDto, InvoiceHistoryEntry } from '~/invoices/invoice-queries.server.ts';
import { formatBytes, formatDateTime } from '~/utils/format.ts';
import { formatMoney } from './display.tsx';
import { DataTable } from '~/components/kit/data-table.tsx';

/** The related sections of /invoices/{id}: lines, documents, payments, payouts and the history of every state change. */

type Detail = Pick<InvoiceDetailDto, 'lines' | 'documents' | 'payments' | 'payouts' | 'history' | 'currency'>;

function Empty({ text }: { text: string }) {
  return <Text color="gray">{text}</Text>;
}

export function LinesSection({ invoice }: { invoice: Detail }) {
  const { t } = useTranslation();
  return (
    <Section title={t('invoices.detail.lines')}>
      <DataTable
        size="1"
        empty={t('invoices.detail.noLines')}
        columns={[
          '#',
          t('invoices.detail.lineDescription'),
          { label: t('invoices.detail.quantity'), justify: 'end' },
          { label: t('invoices.detail.unitPrice'), justify: 'end' },
          t('invoices.detail.vat'),
          { label: t('invoices.detail.netAmount'), justify: 'end' },
        ]}
        items={invoice.lines}
        rowKey={(line) => line.id}
        cells={(line) => (
          <>
            <Table.Cell>{line.lineNumber}</Table.Cell>
            <Table.Cell>
              {line.description}
              {line.kpdCode ? (
                <Text as="div" size="1" color="gray">
                  KPD {line.kpdCode}
                </Text>
              ) : null}
            </Table.Cell>
            <Table.Cell justify="end">
              {Number(line.quantity).toLocaleString('hr-HR', { maximumFractionDigits: 4 })} {line.unitCode}
            </Table.Cell>
            <Table.Cell justify="end">{Number(line.unitPrice).toLocaleString('hr-HR', { minimumFractionDigits: 2, maximumFractionDigits: 4 })}</Table.Cell>
            <Table.Cell>
              {line.vatCategory} {line.vatRate} %
            </Table.Cell>
            <Table.Cell justify="end">{formatMoney(line.netAmount, invoice.currency)}</Table.Cell>
          </>
        )}
      />
    </Section>
  );
}

export function DocumentsSection({ invoice }: { invoice: Detail }) {
  const { t } = useTranslation();
  return (
    <Section title={t('invoices.detail.documents')}>
      {invoice.documents.length === 0 ? (
        <Empty text={t('invoices.detail.noDocuments')} />
      ) : (
        <Flex direction="column" gap="2" data-testid="invoice-documents">
          {invoice.documents.map((document) => (
            <Flex key={document.id} justify="between" align="center" gap="3" wrap="wrap">
              <Text size="2">
                {document.name}{' '}
                <Text color="gray" size="1">
                  {document.mimeType} · {formatBytes(document.size)} · {formatDateTime(document.createdAt)}
                </Text>
              </Text>
              {/* A file download, not a page: reloadDocument keeps Remix from routing it. */}
              <Link to={`/api/documents/${document.id}/download`} reloadDocument>
                {t('invoices.detail.download')}
              </Link>
            </Flex>
          ))}
        </Flex>
      )}
    </Section>
  );
}

/** A payout to the client or a payment from the debtor: the money sections show both in the same five columns. */
interface Movement {
  id: string;
  what: string;
  via: string;
  status: string;
  colour: 'green' | 'gray';
  at: string;
  amount: number;
  currency: string;
}

function MovementTable({ title, empty, testId, items }: { title: string; empty: string; testId?: string; items: Movement[] }) {
  return (
    <div>
      <Text as="div" size="2" weight="medium" mb="1">
        {title}
      </Text>
      <DataTable
        size="1"
        className="fit-cells"
        data-testid={testId}
        empty={empty}
        items={items}
        rowKey={(movement) => movement.id}
        cells={(movement) => (
          <>
            <Table.Cell>{movement.what}</Table.Cell>
            <Table.Cell>{movement.via}</Table.Cell>
            <Table.Cell>
              <Badge color={movement.colour}>{movement.status}</Badge>
            </Table.Cell>
            <Table.Cell>{formatDateTime(movement.at)}</Table.Cell>
            <Table.Cell justify="end">{formatMoney(movement.amount, movement.currency)}</Table.Cell>
          </>
        )}
      />
    </div>
  );
}

export function MoneyMovementsSection({ invoice }: { invoice: Detail }) {
  const { t } = useTranslation();
  const payouts = invoice.payouts.map((payout): Movement => ({
    id: payout.id,
    what: t(`invoices.detail.payoutKind.${payout.kind}`, { defaultValue: payout.kind }),
    via: payout.iban,
    status: payout.status,
    colour: 'gray',
    at: payout.createdAt,
    amount: payout.amount,
    currency: payout.currency,
  }));
  const payments = invoice.payments.map((payment): Movement => ({
    id: payment.id,
    what: payment.reference ?? '—',
    via: payment.paymentMethod,
    status: payment.status,
    colour: payment.status === 'confirmed' ? 'green' : 'gray',
    at: payment.processedAt ?? payment.createdAt,
    amount: payment.amount,
    currency: payment.currency,
  }));
  return (
    <Section title={t('invoices.detail.money')}>
      <Flex direction="column" gap="4">
        <MovementTable title={t('invoices.detail.payouts')} empty={t('invoices.detail.noPayouts')} testId="invoice-payouts" items={payouts} />
        <MovementTable title={t('invoices.detail.payments')} empty={t('invoices.detail.noPayments')} items={payments} />
      </Flex>
    </Section>
  );
}

/** The activity details worth reading in the history: the transition, the reason, the figures. */
function historyNote(entry: InvoiceHistoryEntry, t: (key: string, options?: Record<string, unknown>) => string, currency: string): string {
  const details = entry.details ?? {};
  const parts: string[] = [];
  if (typeof details.fromStatus === 'string' && typeof details.toStatus === 'string') {
    parts.push(`${t(`invoices.status.${details.fromStatus}`)} → ${t(`invoices.status.${details.toStatus}`)}`);
  }
  if (typeof details.reason === 'string') parts.push(t('invoices.detail.reasonNote', { reason: details.reason }));
  if (typeof details.factorAmount === 'number') parts.push(`${t('invoices.card.factorAmount')}: ${formatMoney(details.factorAmount, currency)}`);
  if (typeof details.factorFee === 'number') parts.push(`${t('invoices.card.factorFee')}: ${formatMoney(details.factorFee, currency)}`);
  // A chargeback's and a write-off's outcome (docs/money.md#recourse-and-write-off).
  if (typeof details.owedByClient === 'number') parts.push(`${t('recourse.invoice.owedByClient')}: ${formatMoney(details.owedByClient, currency)}`);
  if (typeof details.loss === 'number') parts.push(`${t('recourse.requests.loss')}: ${formatMoney(details.loss, currency)}`);
  if (typeof details.fileName === 'string') parts.push(details.fileName);
  // A reminder to the debtor (app/dunning/dunning.server.ts): its level.
  if (typeof details.level === 'number') parts.push(t('dunning.settings.level', { level: details.level }));
  return parts.join(' · ');
}

export function HistorySection({ invoice }: { invoice: Detail }) {
  const { t } = useTranslation();
  return (
    <Section title={t('invoices.detail.history')}>
      <DataTable
        size="1"
        data-testid="invoice-history"
        empty={t('invoices.detail.noHistory')}
        columns={[t('invoices.detail.when'), t('invoices.detail.action'), t('invoices.detail.who'), t('invoices.detail.details')]}
        items={invoice.history}
        rowKey={(entry) => entry.id}
        rowProps={(entry) => ({ 'data-action': entry.action })}
        cells={(entry) => (
          <>
            <Table.Cell>{formatDateTime(entry.createdAt)}</Table.Cell>
            <Table.Cell>{t(`invoices.history.${entry.action}`, { defaultValue: entry.action })}</Table.Cell>
            <Table.Cell>{entry.userName ?? entry.userEmail ?? t('invoices.detail.system')}</Table.Cell>
            <Table.Cell>{historyNote(entry, t, invoice.currency)}</Table.Cell>
          </>
        )}
      />
    </Section>
  );
}
