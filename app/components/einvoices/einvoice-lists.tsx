import { Badge, Button, Card, Flex, Heading, Link as RadixLink, Table, Text } from '@radix-ui/themes';
import { Link } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import type { IncomingEInvoiceDto } from '~/einvoices/incoming.server.ts';
import type { OutgoingEInvoiceDto } from '~/einvoices/outgoing.server.ts';
import { formatDate, formatDateTime, formatEur } from '~/utils/format.ts';
import { Pager } from '~/components/kit/pager.tsx';
import { useRefusalText } from '~/components/refusal-text.ts';
import { IntentForm } from '~/components/kit/intent-form.tsx';

interface Paged<T> {
  items: T[];
  page: number;
  pages: number;
}

// Numbers, amounts and dates stay on one line; names wrap.
const NO_WRAP = { whiteSpace: 'nowrap' } as const;

const OUTGOING_COLORS = { pending: 'amber', sent: 'blue', delivered: 'green', failed: 'red' } as const;

export function OutgoingStatusBadge({ status }: { status: OutgoingEInvoiceDto['status'] }) {
  const { t } = useTranslation();
  return (
    <Badge color={OUTGOING_COLORS[status]} variant="soft" data-testid="einvoice-status" data-status={status}>
      {t(`einvoices.outgoing.statuses.${status}`)}
    </Badge>
  );
}

/** What the document is ('Račun za naknadu', 'Dopunski račun za naknadu', 'Odobrenje (knjižno)') and the fee invoice it refers to. */
export function FeeDocumentKind({ einvoice }: { einvoice: Pick<OutgoingEInvoiceDto, 'purpose' | 'precedingNumber'> }) {
  const { t } = useTranslation();
  return (
    <Flex direction="column" data-testid="fee-document-kind" data-purpose={einvoice.purpose}>
      <Text size="2">{t(`einvoices.outgoing.purposes.${einvoice.purpose}`)}</Text>
      {einvoice.precedingNumber ? (
        <Text size="1" color="gray" style={NO_WRAP}>
          {t('einvoices.outgoing.refersTo', { number: einvoice.precedingNumber })}
        </Text>
      ) : null}
    </Flex>
  );
}

/** The card around each list: title, help, the empty text or the table (its header from `columns`), the pager. */
function EInvoiceListCard({
  kind,
  list,
  hrefFor,
  columns,
  alignEnd = [],
  children,
}: {
  kind: 'outgoing' | 'incoming';
  list: Paged<unknown>;
  hrefFor: (page: number) => string;
  columns: string[];
  alignEnd?: string[];
  children: React.ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Card size="3" data-testid={`${kind}-einvoices`}>
      <Flex direction="column" gap="3">
        <Heading as="h3" size="4">
          {t(`einvoices.${kind}.title`)}
        </Heading>
        <Text size="2" color="gray">
          {t(`einvoices.${kind}.help`)}
        </Text>
        {list.items.length === 0 ? (
          <Text color="gray">{t(`einvoices.${kind}.empty`)}</Text>
        ) : (
          <Table.Root variant="surface">
            <Table.Header>
              <Table.Row>
                {columns.map((column) => (
                  <Table.ColumnHeaderCell key={column} justify={alignEnd.includes(column) ? 'end' : undefined}>
                    {t(`einvoices.${kind}.${column}`)}
                  </Table.ColumnHeaderCell>
                ))}
              </Table.Row>
            </Table.Header>
            <Table.Body>{children}</Table.Body>
          </Table.Root>
        )}
        <Pager page={list.page} pages={list.pages} hrefFor={hrefFor} label={t(`einvoices.${kind}.title`)} />
      </Flex>
    </Card>
  );
}

/** A row's one button: a plain form post to the page action, so it works without JavaScript. */
function RowAction({ intent, id, redirectTo, label }: { intent: string; id: string; redirectTo: string; label: string }) {
  return (
    <IntentForm intent={intent} values={{ id, redirectTo }}>
      <Button type="submit" size="1" variant="soft" style={NO_WRAP}>
        {label}
      </Button>
    </IntentForm>
  );
}

/** The factor's fee e-invoices with their sending status; a failed one can be sent again by a manager. */
export function OutgoingEInvoices({
  list,
  canSend,
  hrefFor,
  redirectTo,
}: {
  list: Paged<OutgoingEInvoiceDto>;
  canSend: boolean;
  hrefFor: (page: number) => string;
  redirectTo: string;
}) {
  const { t } = useTranslation();
  return (
    <EInvoiceListCard
      kind="outgoing"
      list={list}
      hrefFor={hrefFor}
      columns={['number', 'kind', 'client', 'invoice', 'gross', 'issueDate', 'status', 'actions']}
      alignEnd={['gross']}
    >
      {list.items.map((einvoice) => (
        <Table.Row key={einvoice.id} data-testid="outgoing-einvoice" data-number={einvoice.number}>
          <Table.Cell style={NO_WRAP}>
            <code>{einvoice.number}</code>
          </Table.Cell>
          <Table.Cell>
            <FeeDocumentKind einvoice={einvoice} />
          </Table.Cell>
          <Table.Cell>
            <Link to={`/clients/${einvoice.clientId}`}>{einvoice.clientName}</Link>
          </Table.Cell>
          <Table.Cell>
            <Link to={`/invoices/${einvoice.invoiceId}`}>{einvoice.invoiceNumber}</Link>
          </Table.Cell>
          <Table.Cell justify="end" style={NO_WRAP}>
            {/* A credit note states a positive amount (EN 16931); it reduces the client's fee. */}
            {formatEur(einvoice.typeCode === '381' ? -einvoice.grossAmount : einvoice.grossAmount)}
          </Table.Cell>
          <Table.Cell style={NO_WRAP}>{formatDate(einvoice.issueDate)}</Table.Cell>
          <Table.Cell>
            <Flex direction="column" gap="1">
              <OutgoingStatusBadge status={einvoice.status} />
              {einvoice.ruleFailures ? (
                <Text size="1" color="red" weight="medium" data-testid="einvoice-rule-failures">
                  {t('einvoices.outgoing.ruleFailures', { rules: einvoice.ruleFailures.join(', ') })}
                </Text>
              ) : null}
              {einvoice.error ? (
                <Text size="1" color="red" data-testid="einvoice-error">
                  {einvoice.error}
                </Text>
              ) : null}
            </Flex>
          </Table.Cell>
          <Table.Cell>
            <Flex gap="2" align="center">
              <RadixLink asChild size="2">
                {/* A plain link to the API: the browser downloads it (Content-Disposition), with or without JavaScript. */}
                <a href={`/api/einvoices/${einvoice.id}/ubl`} download={`${einvoice.number}.xml`} aria-label={t('einvoices.outgoing.downloadLabel', { number: einvoice.number })}>
                  {t('einvoices.outgoing.download')}
                </a>
              </RadixLink>
              {canSend && einvoice.status === 'failed' ? (
                <RowAction intent="resendEInvoice" id={einvoice.id} redirectTo={redirectTo} label={t('einvoices.outgoing.resend')} />
              ) : null}
            </Flex>
          </Table.Cell>
        </Table.Row>
      ))}
    </EInvoiceListCard>
  );
}

/** Documents received through the intermediary: the invoice they became, or why the intake refused them. */
export function IncomingEInvoices({
  list,
  canRetry,
  hrefFor,
  redirectTo,
}: {
  list: Paged<IncomingEInvoiceDto>;
  canRetry: boolean;
  hrefFor: (page: number) => string;
  redirectTo: string;
}) {
  const { t } = useTranslation();
  const refusalText = useRefusalText();
  return (
    <EInvoiceListCard kind="incoming" list={list} hrefFor={hrefFor} columns={['receivedAt', 'document', 'number', 'seller', 'status', 'result']}>
      {list.items.map((document) => (
        <Table.Row key={document.id} data-testid="incoming-einvoice">
          <Table.Cell>{formatDateTime(document.receivedAt)}</Table.Cell>
          <Table.Cell>
            <code>{document.documentId}</code>
          </Table.Cell>
          <Table.Cell>{document.invoiceNumber ?? '—'}</Table.Cell>
          <Table.Cell>{document.clientName ?? (document.sellerOib ? `OIB ${document.sellerOib}` : '—')}</Table.Cell>
          <Table.Cell>
            <Badge color={document.status === 'imported' ? 'green' : 'red'} variant="soft">
              {t(`einvoices.incoming.statuses.${document.status}`)}
            </Badge>
          </Table.Cell>
          <Table.Cell>
            {document.invoiceId ? (
              <Link to={`/invoices/${document.invoiceId}`}>{t('einvoices.incoming.openInvoice')}</Link>
            ) : (
              <Flex direction="column" gap="1" align="start">
                <Text size="1" color="red">
                  {refusalText(document.errorCode ?? document.error ?? '')}
                </Text>
                {canRetry ? <RowAction intent="retryIncoming" id={document.id} redirectTo={redirectTo} label={t('einvoices.incoming.retry')} /> : null}
              </Flex>
            )}
          </Table.Cell>
        </Table.Row>
      ))}
    </EInvoiceListCard>
  );
}
