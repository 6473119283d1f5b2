import { Badge, Flex, Table, Text } from '@radix-ui/themes';
import { Link } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { Section } from '~/components/clients/party-detail.tsx';
import type { InvoiceDetailDto, InvoiceHistoryEntry } from '~/invoices/invoice-queries.server.ts';
import { formatBytes, formatDateTime } from '~/utils/format.ts';
import { formatMoney } from './display.tsx';
import { TableHead } from '~/components/kit/table-head.tsx';

/** The related sections of /invoices/{id}: lines, documents, payments, payouts and the history of every state change. */

type Detail = Pick<InvoiceDetailDto, 'lines' | 'documents' | 'payments' | 'payouts' | 'history' | 'currency'>;

function Empty({ text }: { text: string }) {
  return <Text color="gray">{text}</Text>;
}

export function LinesSection({ invoice }: { invoice: Detail }) {
  const { t } = useTranslation();
  return (
    <Section title={t('invoices.detail.lines')}>
      {invoice.lines.length === 0 ? (
        <Empty text={t('invoices.detail.noLines')} />
      ) : (
        <Table.Root size="1">
          <TableHead
            columns={[
              '#',
              t('invoices.detail.lineDescription'),
              { label: t('invoices.detail.quantity'), justify: 'end' },
              { label: t('invoices.detail.unitPrice'), justify: 'end' },
              t('invoices.detail.vat'),
              { label: t('invoices.detail.netAmount'), justify: 'end' },
            ]}
          />
          <Table.Body>
            {invoice.lines.map((line) => (
              <Table.Row key={line.id}>
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
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      )}
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

export function MoneyMovementsSection({ invoice }: { invoice: Detail }) {
  const { t } = useTranslation();
  return (
    <Section title={t('invoices.detail.money')}>
      <Flex direction="column" gap="4">
        <div>
          <Text as="div" size="2" weight="medium" mb="1">
            {t('invoices.detail.payouts')}
          </Text>
          {invoice.payouts.length === 0 ? (
            <Empty text={t('invoices.detail.noPayouts')} />
          ) : (
            <Table.Root size="1" className="fit-cells" data-testid="invoice-payouts">
              <Table.Body>
                {invoice.payouts.map((payout) => (
                  <Table.Row key={payout.id}>
                    <Table.Cell>{t(`invoices.detail.payoutKind.${payout.kind}`, { defaultValue: payout.kind })}</Table.Cell>
                    <Table.Cell>{payout.iban}</Table.Cell>
                    <Table.Cell>
                      <Badge color="gray">{payout.status}</Badge>
                    </Table.Cell>
                    <Table.Cell>{formatDateTime(payout.createdAt)}</Table.Cell>
                    <Table.Cell justify="end">{formatMoney(payout.amount, payout.currency)}</Table.Cell>
                  </Table.Row>
                ))}
              </Table.Body>
            </Table.Root>
          )}
        </div>
        <div>
          <Text as="div" size="2" weight="medium" mb="1">
            {t('invoices.detail.payments')}
          </Text>
          {invoice.payments.length === 0 ? (
            <Empty text={t('invoices.detail.noPayments')} />
          ) : (
            <Table.Root size="1" className="fit-cells">
              <Table.Body>
                {invoice.payments.map((payment) => (
                  <Table.Row key={payment.id}>
                    <Table.Cell>{payment.reference ?? '—'}</Table.Cell>
                    <Table.Cell>{payment.paymentMethod}</Table.Cell>
                    <Table.Cell>
                      <Badge color={payment.status === 'confirmed' ? 'green' : 'gray'}>{payment.status}</Badge>
                    </Table.Cell>
                    <Table.Cell>{formatDateTime(payment.processedAt ?? payment.createdAt)}</Table.Cell>
                    <Table.Cell justify="end">{formatMoney(payment.amount, payment.currency)}</Table.Cell>
                  </Table.Row>
                ))}
              </Table.Body>
            </Table.Root>
          )}
        </div>
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
      {invoice.history.length === 0 ? (
        <Empty text={t('invoices.detail.noHistory')} />
      ) : (
        <Table.Root size="1" data-testid="invoice-history">
          <TableHead columns={[t('invoices.detail.when'), t('invoices.detail.action'), t('invoices.detail.who'), t('invoices.detail.details')]} />
          <Table.Body>
            {invoice.history.map((entry) => (
              <Table.Row key={entry.id} data-action={entry.action}>
                <Table.Cell>{formatDateTime(entry.createdAt)}</Table.Cell>
                <Table.Cell>{t(`invoices.history.${entry.action}`, { defaultValue: entry.action })}</Table.Cell>
                <Table.Cell>{entry.userName ?? entry.userEmail ?? t('invoices.detail.system')}</Table.Cell>
                <Table.Cell>{historyNote(entry, t, invoice.currency)}</Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      )}
    </Section>
  );
}
