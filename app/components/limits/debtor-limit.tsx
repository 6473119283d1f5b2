import { Button, Flex, Table, Text } from '@radix-ui/themes';
import { Link } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { Facts, Section } from '~/components/clients/party-detail.tsx';
import { TableHead } from '~/components/kit/table-head.tsx';
import { LimitStatusBadge } from '~/components/limits/display.tsx';
import type { CreditLimitRequestDto } from '~/limits/credit-limits.server.ts';
import { formatDate, formatDateTime, formatEur } from '~/utils/format.ts';

/**
 * The customer page's debtor limit (docs/screens.md): the approved limit, the
 * exposure (advances outstanding on its invoices across all clients, kept by
 * the ledger) and what is available, its limit requests, and 'Zatraži limit',
 * which opens the /limits request form with this debtor chosen.
 */
export function DebtorLimitSection({
  customer,
  requests,
  requestHref,
}: {
  customer: { creditLimit: number | null; usedCredit: number; availableCredit: number | null };
  requests: CreditLimitRequestDto[];
  requestHref: string | null;
}) {
  const { t } = useTranslation();
  const eur0 = (amount: number) => formatEur(amount, { decimals: 0 });
  return (
    <Section
      title={t('customers.limit.title')}
      id="limit"
      aside={
        requestHref ? (
          <Button asChild size="2" variant="soft">
            <Link to={requestHref} data-testid="request-debtor-limit">
              {t('customers.limit.request')}
            </Link>
          </Button>
        ) : null
      }
    >
      <Flex direction="column" gap="4">
        <Facts
          rows={[
            [t('customers.limit.creditLimit'), customer.creditLimit === null ? t('customers.limit.none') : eur0(customer.creditLimit), 'debtor-credit-limit'],
            [t('customers.limit.usedCredit'), eur0(customer.usedCredit), 'debtor-used-credit'],
            [
              t('customers.limit.available'),
              <Text key="available" data-testid="debtor-available-credit" color={customer.availableCredit !== null && customer.availableCredit < 0 ? 'red' : undefined}>
                {customer.availableCredit === null ? t('customers.limit.none') : eur0(customer.availableCredit)}
              </Text>,
            ],
          ]}
        />
        {requests.length === 0 ? (
          <Text size="2" color="gray">
            {t('customers.limit.noRequests')}
          </Text>
        ) : (
          <Table.Root size="1" aria-label={t('customers.limit.requests')} data-testid="debtor-limit-requests">
            <TableHead
              columns={[
                t('limits.card.requested'),
                { label: t('limits.card.approved'), justify: 'end' },
                t('limits.fields.validUntil'),
                t('limits.card.reason'),
                t('customers.limit.status'),
              ]}
            />
            <Table.Body>
              {requests.map((request) => (
                <Table.Row key={request.id} data-testid="debtor-limit-request" data-id={request.id} data-status={request.status}>
                  <Table.Cell>
                    {eur0(request.requestedLimit)}
                    <Text as="div" size="1" color="gray">
                      {formatDateTime(request.requestedAt)}
                    </Text>
                  </Table.Cell>
                  <Table.Cell justify="end">{request.approvedLimit === null ? '—' : eur0(request.approvedLimit)}</Table.Cell>
                  <Table.Cell>{request.validUntil ? formatDate(request.validUntil) : '—'}</Table.Cell>
                  <Table.Cell>{request.reason}</Table.Cell>
                  <Table.Cell>
                    <LimitStatusBadge status={request.status} />
                  </Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        )}
      </Flex>
    </Section>
  );
}
