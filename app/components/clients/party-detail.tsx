import { Card, DataList, Flex, Heading, Table, Text } from '@radix-ui/themes';
import { Link } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import type { ActivityDto, PartyCompanyDto, PartyContactDto, PartyDocumentDto, PartyInvoiceDto, RiskHistoryDto } from '~/clients/party.server.ts';
import { formatBytes, formatDate, formatDateTime, formatEur } from '~/utils/format.ts';
import { riskColour } from './display.tsx';
import { TableHead, type TableColumn } from '~/components/kit/table-head.tsx';
import { InvoiceStatusBadge } from '~/components/invoices/display.tsx';

/** The related sections of a client's or customer's detail page. */

export function Section({ title, aside, children, id }: { title: string; aside?: React.ReactNode; children: React.ReactNode; id?: string }) {
  return (
    <Card size="3" id={id}>
      <Flex justify="between" align="baseline" mb="3" gap="3" wrap="wrap">
        <Heading as="h2" size="4">
          {title}
        </Heading>
        {aside}
      </Flex>
      {children}
    </Card>
  );
}

/** A titled table of the party's records under its column headings, or a line saying there are none. */
function TableSection({
  title,
  aside,
  count,
  empty,
  columns,
  children,
}: {
  title: string;
  aside?: React.ReactNode;
  count: number;
  empty: string;
  columns: TableColumn[];
  children: React.ReactNode;
}) {
  return (
    <Section title={title} aside={aside}>
      {count === 0 ? (
        <Text color="gray">{empty}</Text>
      ) : (
        <Table.Root size="1">
          <TableHead columns={columns} />
          <Table.Body>{children}</Table.Body>
        </Table.Root>
      )}
    </Section>
  );
}

/** Label–value rows; a row with a `testId` shows its value in a `Text` carrying that test id. */
export function Facts({ rows }: { rows: Array<[label: string, value: React.ReactNode, testId?: string]> }) {
  const { t } = useTranslation();
  return (
    <DataList.Root>
      {rows.map(([label, value, testId]) => {
        const shown = value === null || value === undefined || value === '' ? t('clients.detail.empty') : value;
        return (
          <DataList.Item key={label}>
            <DataList.Label>{label}</DataList.Label>
            <DataList.Value>{testId ? <Text data-testid={testId}>{shown}</Text> : shown}</DataList.Value>
          </DataList.Item>
        );
      })}
    </DataList.Root>
  );
}

/** The top of a client's or a customer's page: the link back to the list, the company's name and its status badge. */
export function PartyHeader({ back, title, badge }: { back: { to: string; label: string }; title: string; badge: React.ReactNode }) {
  return (
    <>
      <Link to={back.to}>{back.label}</Link>
      <Flex justify="between" align="center" gap="3" wrap="wrap">
        <Heading as="h2" size="6" data-testid="detail-title">
          {title}
        </Heading>
        {badge}
      </Flex>
    </>
  );
}

/**
 * 'Podaci o tvrtki' of a client's or a customer's page: OIB, address, the
 * contact person (a client's), e-mail, phone, IBAN and registration number,
 * then the page's own `rows`.
 */
export function CompanySection({
  party,
  rows,
}: {
  party: PartyCompanyDto & PartyContactDto & { contactPerson?: string | null };
  rows: Array<[label: string, value: React.ReactNode]>;
}) {
  const { t } = useTranslation();
  return (
    <Section title={t('clients.detail.company')}>
      <Facts
        rows={[
          [t('clients.fields.oib').replace(/ \*$/, ''), party.oib],
          [t('clients.fields.address'), [party.address, [party.postalCode, party.city].filter(Boolean).join(' '), party.country].filter(Boolean).join(', ')],
          ...(party.contactPerson === undefined ? [] : [[t('clients.fields.contactPerson'), party.contactPerson] as [string, string | null]]),
          [t('clients.fields.email'), party.email],
          [t('clients.fields.phone'), party.phone],
          [t('clients.fields.iban'), party.iban],
          [t('clients.fields.registrationNumber'), party.registrationNumber],
          ...rows,
        ]}
      />
    </Section>
  );
}

/** Latest 20 invoices with their status and amounts (2 decimals), and the full count. */
export function InvoicesSection({ invoices, count, counterparty }: { invoices: PartyInvoiceDto[]; count: number; counterparty: 'customer' | 'client' }) {
  const { t } = useTranslation();
  const base = counterparty === 'customer' ? '/customers' : '/clients';
  return (
    <TableSection
      title={t('clients.detail.invoices')}
      aside={
        count > 0 ? (
          <Text size="2" color="gray" data-testid="invoice-count">
            {t('clients.detail.invoicesShown', { shown: invoices.length, count })}
          </Text>
        ) : null
      }
      count={invoices.length}
      empty={t('clients.detail.noInvoices')}
      columns={[
        t('clients.detail.invoiceNumber'),
        counterparty === 'customer' ? t('clients.detail.counterpartyCustomer') : t('clients.detail.counterpartyClient'),
        t('clients.detail.invoiceStatus'),
        { label: t('clients.detail.amount'), justify: 'end' },
        { label: t('clients.detail.advance'), justify: 'end' },
        { label: t('clients.detail.fee'), justify: 'end' },
        t('clients.detail.issueDate'),
        t('clients.detail.dueDate'),
      ]}
    >
      {invoices.map((invoice) => (
        <Table.Row key={invoice.id}>
          <Table.RowHeaderCell>{invoice.invoiceNumber}</Table.RowHeaderCell>
          <Table.Cell>
            <Link to={`${base}/${invoice.counterpartyId}`}>{invoice.counterpartyName}</Link>
          </Table.Cell>
          <Table.Cell>
            <InvoiceStatusBadge status={invoice.status} />
          </Table.Cell>
          <Table.Cell justify="end">{formatEur(invoice.amount, { decimals: 2 })}</Table.Cell>
          <Table.Cell justify="end">{formatEur(invoice.factorAmount, { decimals: 2 })}</Table.Cell>
          <Table.Cell justify="end">{formatEur(invoice.factorFee, { decimals: 2 })}</Table.Cell>
          <Table.Cell>{formatDate(invoice.issueDate)}</Table.Cell>
          <Table.Cell>{formatDate(invoice.dueDate)}</Table.Cell>
        </Table.Row>
      ))}
    </TableSection>
  );
}

/** Name, type, size, date and a download link (served by the documents area). */
export function DocumentsSection({ documents }: { documents: PartyDocumentDto[] }) {
  const { t } = useTranslation();
  return (
    <TableSection
      title={t('clients.detail.documents')}
      count={documents.length}
      empty={t('clients.detail.noDocuments')}
      columns={[t('clients.detail.documentName'), t('clients.detail.documentType'), t('clients.detail.size'), t('clients.detail.uploaded'), '']}
    >
      {documents.map((document) => (
        <Table.Row key={document.id}>
          <Table.RowHeaderCell>{document.name}</Table.RowHeaderCell>
          <Table.Cell>{t(`clients.documentType.${document.type}`)}</Table.Cell>
          <Table.Cell>{formatBytes(document.size)}</Table.Cell>
          <Table.Cell>{formatDate(document.createdAt)}</Table.Cell>
          <Table.Cell>
            {/* A file download, not a page: reloadDocument keeps Remix from routing it. */}
            <Link to={`/api/documents/${document.id}/download`} reloadDocument>
              {t('clients.detail.download')}
            </Link>
          </Table.Cell>
        </Table.Row>
      ))}
    </TableSection>
  );
}

/** The entity's risk assessments, newest first. */
export function RiskHistorySection({ history }: { history: RiskHistoryDto[] }) {
  const { t } = useTranslation();
  return (
    <TableSection
      title={t('clients.detail.risk')}
      count={history.length}
      empty={t('clients.detail.noRisk')}
      columns={[t('clients.detail.date'), t('clients.detail.score'), t('clients.detail.category'), t('clients.detail.assessedBy')]}
    >
      {history.map((row) => (
        <Table.Row key={row.id}>
          <Table.Cell>{formatDate(row.createdAt)}</Table.Cell>
          <Table.Cell>
            <Text color={riskColour(row.score)} weight="bold">
              {row.score}/100
            </Text>
          </Table.Cell>
          <Table.Cell>{t(`clients.riskCategory.${row.category}`)}</Table.Cell>
          <Table.Cell>{row.assessedBy === 'system' ? t('clients.detail.system') : row.assessedBy}</Table.Cell>
        </Table.Row>
      ))}
    </TableSection>
  );
}

const KNOWN_ACTIONS = new Set([
  'client_created',
  'client_updated',
  'customer_created',
  'customer_updated',
  'client_kyc_approved',
  'client_kyc_rejected',
  'client_kyc_documents_requested',
  'client_kyc_documents_received',
  'client_onboarding_completed',
]);
const FIELD_NAMES = new Set(['companyName', 'oib', 'address', 'city', 'postalCode', 'country', 'contactPerson', 'email', 'phone', 'iban', 'registrationNumber', 'status']);

/** The activity log rows of the entity, newest first; edits list their changes old → new. */
export function ActivitySection({ activity }: { activity: ActivityDto[] }) {
  const { t } = useTranslation();
  const fieldLabel = (field: string) => (FIELD_NAMES.has(field) ? t(`clients.fields.${field}`).replace(/ \*$/, '') : field);
  const shown = (value: unknown) => (value === null || value === undefined || value === '' ? t('clients.detail.empty') : String(value));
  return (
    <Section title={t('clients.detail.activity')}>
      {activity.length === 0 ? (
        <Text color="gray">{t('clients.detail.noActivity')}</Text>
      ) : (
        <Flex direction="column" gap="3" asChild>
          <ol style={{ listStyle: 'none', margin: 0, padding: 0 }} data-testid="activity-list">
            {activity.map((row) => {
              const changes = (row.details.changes ?? {}) as Record<string, { old: unknown; new: unknown }>;
              const who = row.userName ?? (row.details.source === 'registration' ? t('clients.detail.byApplicant') : t('clients.detail.bySystem'));
              return (
                <li key={row.id}>
                  <Text as="div" size="2" weight="medium">
                    {KNOWN_ACTIONS.has(row.action) ? t(`clients.actions.${row.action}`) : row.action}
                  </Text>
                  <Text as="div" size="1" color="gray">
                    {formatDateTime(row.createdAt)} · {who}
                  </Text>
                  {/* A KYC decision's reason, or the message that asked for documents. */}
                  {typeof row.details.reason === 'string' || typeof row.details.message === 'string' ? (
                    <Text as="div" size="1" style={{ whiteSpace: 'pre-line' }}>
                      {String(row.details.reason ?? row.details.message)}
                    </Text>
                  ) : null}
                  {Object.entries(changes).map(([field, change]) => (
                    <Text as="div" size="1" key={field}>
                      {t('clients.detail.changed', { field: fieldLabel(field), old: shown(change.old), new: shown(change.new) })}
                    </Text>
                  ))}
                </li>
              );
            })}
          </ol>
        </Flex>
      )}
    </Section>
  );
}
