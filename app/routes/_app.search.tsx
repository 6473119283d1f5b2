import { Card, Flex, Heading, Table, Text } from '@radix-ui/themes';
import { json, type LoaderFunctionArgs } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { requirePermission } from '~/auth/permissions.server.ts';
import { searchEverything } from '~/search.server.ts';
import { formatEur } from '~/utils/format.ts';
import { InvoiceStatusBadge } from '~/components/invoices/display.tsx';

export async function loader({ request }: LoaderFunctionArgs) {
  await requirePermission(request, 'read:all');
  const q = new URL(request.url).searchParams.get('q') ?? '';
  return json({ q, results: await searchEverything(q) });
}

/** Results of the header's search box, grouped by kind; each row opens its list filtered to it. */
export default function SearchPage() {
  const { q, results } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const total = results.clients.length + results.customers.length + results.invoices.length;
  if (!q.trim()) return <Text color="gray">{t('search.hint')}</Text>;
  if (total === 0) return <Text color="gray">{t('search.none', { q })}</Text>;
  return (
    <Flex direction="column" gap="4">
      <PartyResults title={t('search.clients')} rows={results.clients} basePath="/clients" />
      <PartyResults title={t('search.customers')} rows={results.customers} basePath="/customers" />
      {results.invoices.length ? (
        <Card size="2">
          <Heading as="h2" size="4" mb="2">
            {t('search.invoices')}
          </Heading>
          <Table.Root>
            <Table.Body>
              {results.invoices.map((invoice) => (
                <Table.Row key={invoice.id}>
                  <Table.RowHeaderCell>
                    <Link to={`/invoices/${invoice.id}`}>{invoice.invoiceNumber}</Link>
                  </Table.RowHeaderCell>
                  <Table.Cell>{invoice.clientName}</Table.Cell>
                  <Table.Cell>{formatEur(invoice.amount, { decimals: 2 })}</Table.Cell>
                  <Table.Cell>
                    <InvoiceStatusBadge status={invoice.status} />
                  </Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        </Card>
      ) : null}
    </Flex>
  );
}

function PartyResults({ title, rows, basePath }: { title: string; rows: Array<{ id: string; companyName: string; oib: string; city: string | null }>; basePath: string }) {
  if (!rows.length) return null;
  return (
    <Card size="2">
      <Heading as="h2" size="4" mb="2">
        {title}
      </Heading>
      <Table.Root>
        <Table.Body>
          {rows.map((row) => (
            <Table.Row key={row.id}>
              <Table.RowHeaderCell>
                <Link to={`${basePath}/${row.id}`}>{row.companyName}</Link>
              </Table.RowHeaderCell>
              <Table.Cell>{row.oib}</Table.Cell>
              <Table.Cell>{row.city}</Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
    </Card>
  );
}
