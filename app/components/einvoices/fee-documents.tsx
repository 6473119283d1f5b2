import { Table, Text } from '@radix-ui/themes';
import { useTranslation } from 'react-i18next';
import { Section } from '~/components/clients/party-detail.tsx';
import { TableHead } from '~/components/kit/table-head.tsx';
import type { OutgoingEInvoiceDto } from '~/einvoices/outgoing.server.ts';
import { formatEur } from '~/utils/format.ts';
import { FeeDocumentKind, OutgoingStatusBadge } from './einvoice-lists.tsx';

// Numbers and amounts stay on one line.
const NO_WRAP = { whiteSpace: 'nowrap' } as const;

/**
 * A fee document's amount as it bears on the client: a credit note (381)
 * states positive amounts (EN 16931), shown here with a minus so the column
 * adds up to the fee finally invoiced (docs/decisions/015-fee-documents-at-settlement.md).
 */
function signed(einvoice: Pick<OutgoingEInvoiceDto, 'typeCode'>, amount: number): string {
  return formatEur(einvoice.typeCode === '381' ? -amount : amount);
}

/** The invoice page's fee documents: the fee invoice of the financing and what settlement added to it. */
export function FeeDocumentsSection({ documents }: { documents: OutgoingEInvoiceDto[] }) {
  const { t } = useTranslation();
  const heading = (key: string) => t(`einvoices.feeDocuments.${key}`);
  return (
    <Section title={heading('title')}>
      {documents.length === 0 ? (
        <Text color="gray">{heading('empty')}</Text>
      ) : (
        <Table.Root size="1" data-testid="fee-documents">
          <TableHead
            columns={[
              heading('number'),
              heading('kind'),
              { label: heading('net'), justify: 'end' },
              { label: heading('vat'), justify: 'end' },
              { label: heading('gross'), justify: 'end' },
              heading('status'),
            ]}
          />
          <Table.Body>
            {documents.map((einvoice) => (
              <Table.Row key={einvoice.id} data-testid="fee-document" data-number={einvoice.number}>
                <Table.Cell style={NO_WRAP}>
                  <a href={`/api/einvoices/${einvoice.id}/ubl`} download={`${einvoice.number}.xml`} aria-label={t('einvoices.outgoing.downloadLabel', { number: einvoice.number })}>
                    <code>{einvoice.number}</code>
                  </a>
                </Table.Cell>
                <Table.Cell>
                  <FeeDocumentKind einvoice={einvoice} />
                </Table.Cell>
                <Table.Cell justify="end" style={NO_WRAP} data-testid="fee-document-net">
                  {signed(einvoice, einvoice.netAmount)}
                </Table.Cell>
                <Table.Cell justify="end" style={NO_WRAP}>
                  {signed(einvoice, einvoice.vatAmount)}
                </Table.Cell>
                <Table.Cell justify="end" style={NO_WRAP} data-testid="fee-document-gross">
                  {signed(einvoice, einvoice.grossAmount)}
                </Table.Cell>
                <Table.Cell>
                  <OutgoingStatusBadge status={einvoice.status} />
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      )}
    </Section>
  );
}
