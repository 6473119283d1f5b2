import { Badge, Button, Flex, Table, Text } from '@radix-ui/themes';
import { Form, Link } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { Section } from '~/components/clients/party-detail.tsx';
import { InlineSelect, Options } from '~/components/kit/fields.tsx';
import { Pager } from '~/components/kit/pager.tsx';
import { TableHead } from '~/components/kit/table-head.tsx';
import type { DebtorLinkDto, DebtorLinkStatus } from '~/debtors/links.server.ts';
import { formatDateTime } from '~/utils/format.ts';

const STATUS_COLOURS: Record<DebtorLinkStatus, 'blue' | 'green' | 'gray' | 'amber'> = { open: 'blue', spent: 'green', revoked: 'gray', expired: 'amber' };

/**
 * The customer page's section on the debtor's links (docs/screens.md): each
 * link with its client, state and answers, 'Pošalji ponovno' / 'Opozovi' for
 * a manager, and the form that asks the debtor to confirm a client's invoices.
 * The forms post to the /api/debtor-links routes and come back here (#debtor-links).
 */
export function DebtorLinksSection({
  customerId,
  data,
}: {
  customerId: string;
  data: { links: DebtorLinkDto[]; total: number; page: number; pages: number; clients: Array<{ id: string; name: string }>; canManage: boolean };
}) {
  const { t } = useTranslation();
  const back = `/customers/${customerId}${data.page > 1 ? `?linksPage=${data.page}` : ''}#debtor-links`;
  return (
    <Section title={t('debtors.links.title')} id="debtor-links">
      <Flex direction="column" gap="3">
        {data.canManage ? (
          data.clients.length > 0 ? (
            <Form method="post" action="/api/debtor-links" data-testid="debtor-request-form">
              <input type="hidden" name="customerId" value={customerId} />
              <input type="hidden" name="redirectTo" value={back} />
              <InlineSelect label={t('debtors.links.client')} name="clientId" required submitLabel={t('debtors.links.request')}>
                <option value="">{t('debtors.links.chooseClient')}</option>
                <Options items={data.clients} value={(client) => client.id} label={(client) => client.name} />
              </InlineSelect>
            </Form>
          ) : (
            <Text size="2" color="gray">
              {t('debtors.links.nothingToConfirm')}
            </Text>
          )
        ) : null}
        {data.total === 0 ? (
          <Text color="gray" data-testid="debtor-links-empty">
            {t('debtors.links.empty')}
          </Text>
        ) : (
          <Table.Root size="1" data-testid="debtor-links">
            <TableHead
              columns={[
                { label: t('debtors.links.client') },
                { label: t('debtors.links.status') },
                { label: t('debtors.links.sent') },
                { label: t('debtors.links.expires') },
                { label: t('debtors.links.answers') },
                { label: t('debtors.links.notice') },
                ...(data.canManage ? [{ label: t('debtors.links.actions') }] : []),
              ]}
            />
            <Table.Body>
              {data.links.map((link) => (
                <Table.Row key={link.id} data-testid={`debtor-link-${link.id}`}>
                  <Table.Cell>
                    <Link to={`/clients/${link.clientId}`}>{link.clientName}</Link>
                  </Table.Cell>
                  <Table.Cell>
                    <Badge color={STATUS_COLOURS[link.status]} data-testid="debtor-link-status">
                      {t(`debtors.links.statuses.${link.status}`)}
                    </Badge>
                  </Table.Cell>
                  <Table.Cell>{t('debtors.links.by', { at: formatDateTime(link.createdAt), name: link.createdBy ?? t('debtors.links.system') })}</Table.Cell>
                  <Table.Cell>{formatDateTime(link.expiresAt)}</Table.Cell>
                  <Table.Cell>
                    {link.spentAt
                      ? t('debtors.links.answered', { at: formatDateTime(link.spentAt), confirmed: link.confirmed, disputed: link.disputed, ip: link.submittedIp ?? '' })
                      : '—'}
                  </Table.Cell>
                  <Table.Cell>
                    <a href={link.noticeUrl}>{t('debtors.links.download')}</a>
                  </Table.Cell>
                  {data.canManage ? (
                    <Table.Cell>
                      <Flex gap="2">
                        <Form method="post" action={`/api/debtor-links/${link.id}/resend`}>
                          <input type="hidden" name="redirectTo" value={back} />
                          <Button type="submit" size="1" variant="soft" aria-label={t('debtors.links.resendFor', { client: link.clientName })}>
                            {t('debtors.links.resend')}
                          </Button>
                        </Form>
                        {link.status === 'open' ? (
                          <Form method="post" action={`/api/debtor-links/${link.id}/revoke`}>
                            <input type="hidden" name="redirectTo" value={back} />
                            <Button type="submit" size="1" variant="soft" color="red" aria-label={t('debtors.links.revokeFor', { client: link.clientName })}>
                              {t('debtors.links.revoke')}
                            </Button>
                          </Form>
                        ) : null}
                      </Flex>
                    </Table.Cell>
                  ) : null}
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        )}
        <Pager page={data.page} pages={data.pages} hrefFor={(page) => `/customers/${customerId}?linksPage=${page}#debtor-links`} label={t('debtors.links.pager')} />
      </Flex>
    </Section>
  );
}
