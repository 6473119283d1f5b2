import { Badge, Button, Card, Flex, Heading, Progress, Text } from '@radix-ui/themes';
import { Link, useNavigation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { usageColour } from '~/components/clients/display.tsx';
import type { ClientLimitDto, CreditLimitRequestDto } from '~/limits/credit-limits.server.ts';
import type { CreditLimitStatus, LimitPartyType } from '~/limits/schemas.ts';
import { formatDate, formatDateTime, formatEur } from '~/utils/format.ts';
import { IntentForm } from '~/components/kit/intent-form.tsx';
import { ValueBadge } from '~/components/kit/value-badge.tsx';

/** The displays of /limits (docs/screens.md): status badges, request cards with the decisions, the grid's usage bars. */

const STATUS_COLOURS = { pending: 'amber', approved: 'green', rejected: 'red', expired: 'gray' } as const;

export function LimitStatusBadge({ status }: { status: CreditLimitStatus }) {
  return <ValueBadge value={status} colours={STATUS_COLOURS} labels="limits.status" testId="limit-status" />;
}

/** A client's page or a debtor's (customer's). */
const partyHref = (type: LimitPartyType, id: string) => (type === 'client' ? `/clients/${id}` : `/customers/${id}`);

/** Whose limit a request or a grid card is: the kind column of /limits (docs/screens.md). */
export function PartyTypeBadge({ type }: { type: LimitPartyType }) {
  const { t } = useTranslation();
  return (
    <Badge color={type === 'client' ? 'blue' : 'violet'} variant="outline" data-testid="party-type" data-party-type={type}>
      {t(`limits.partyTypes.${type}`)}
    </Badge>
  );
}

/** Limits show whole euros (docs/screens.md). */
const eur0 = (amount: number | null) => formatEur(amount, { decimals: 0 });

/**
 * One request: client, previous → requested (and approved) limit, reason,
 * who asked and when, validity, the decision. Approve and Reject are plain
 * form posts (no JavaScript needed), shown only when `canDecide` (a manager,
 * the request pending, and not their own: the server refuses that with 403).
 */
export function RequestCard({ request, canDecide, isOwn }: { request: CreditLimitRequestDto; canDecide: boolean; isOwn: boolean }) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const busy = navigation.state === 'submitting' && navigation.formData?.get('id') === request.id;
  const offerDecision = canDecide && request.status === 'pending' && !isOwn;
  const shownLimit = request.status === 'approved' || request.status === 'expired' ? request.approvedLimit : request.requestedLimit;
  return (
    <Card size="2" data-testid="limit-request" data-status={request.status} data-id={request.id} data-party-type={request.partyType}>
      <Flex direction="column" gap="2">
        <Flex justify="between" align="start" gap="2">
          <Heading as="h3" size="3">
            <Link to={partyHref(request.partyType, (request.clientId ?? request.customerId)!)}>{request.partyName}</Link>
          </Heading>
          <Flex gap="2" align="center">
            <PartyTypeBadge type={request.partyType} />
            <LimitStatusBadge status={request.status} />
          </Flex>
        </Flex>
        <Flex align="baseline" gap="2" wrap="wrap" data-testid="limit-change">
          <Text size="2" color="gray" title={t('limits.card.previous')}>
            {request.previousLimit === null ? t('limits.noLimit') : eur0(request.previousLimit)}
          </Text>
          <Text size="2" color="gray" aria-hidden>
            →
          </Text>
          <Text size="4" weight="bold" title={t(shownLimit === request.approvedLimit ? 'limits.card.approved' : 'limits.card.requested')}>
            {eur0(shownLimit)}
          </Text>
          {request.approvedLimit !== null && request.approvedLimit !== request.requestedLimit ? (
            <Text size="1" color="gray">
              ({t('limits.card.requested')}: {eur0(request.requestedLimit)})
            </Text>
          ) : null}
        </Flex>
        <Text size="2">
          <Text color="gray">{t('limits.card.reason')}: </Text>
          {request.reason}
        </Text>
        <Text size="1" color="gray">
          {t('limits.card.requestedBy', {
            name: request.requestedById === null ? t('limits.card.applicant') : (request.requestedBy ?? t('limits.card.unknownUser')),
            when: formatDateTime(request.requestedAt),
          })}
        </Text>
        {request.validUntil ? (
          <Text size="1" color="gray" data-testid="valid-until">
            {t('limits.card.validUntil', { date: formatDate(request.validUntil) })}
          </Text>
        ) : null}
        {request.decidedAt ? (
          <Text size="1" color="gray">
            {t('limits.card.decidedBy', { name: request.decidedBy ?? t('limits.card.unknownUser'), when: formatDateTime(request.decidedAt) })}
          </Text>
        ) : null}
        {request.rejectionReason ? (
          <Text size="1" color="red">
            {t('limits.card.rejectionReason', { reason: request.rejectionReason })}
          </Text>
        ) : null}
        {offerDecision ? (
          <Flex gap="2" justify="end">
            <IntentForm intent="approve" values={{ id: request.id }}>
              <Button type="submit" color="green" disabled={busy}>
                {t('limits.card.approve')}
              </Button>
            </IntentForm>
            <IntentForm intent="reject" values={{ id: request.id }}>
              <Button type="submit" color="red" variant="soft" disabled={busy}>
                {t('limits.card.reject')}
              </Button>
            </IntentForm>
          </Flex>
        ) : canDecide && request.status === 'pending' && isOwn ? (
          <Text size="1" color="gray" data-testid="own-request">
            {t('limits.card.ownRequest')}
          </Text>
        ) : null}
      </Flex>
    </Card>
  );
}

const PERCENT = new Intl.NumberFormat('hr-HR', { maximumFractionDigits: 1 });

/** The utilisation bar: capped at 100 %, red over 90 %, amber over 70 %, else green (docs/screens.md). */
export function UtilisationBar({ percent }: { percent: number | null }) {
  const { t } = useTranslation();
  const value = percent ?? 0;
  const shown = Math.min(100, Math.max(0, value));
  const label = t('limits.grid.usage', { percent: PERCENT.format(value) });
  return (
    <Flex direction="column" gap="1">
      <Progress value={shown} max={100} color={usageColour(value)} aria-label={label} data-testid="utilisation" data-colour={usageColour(value)} data-percent={shown} />
      <Text size="1" color="gray">
        {label}
      </Text>
    </Flex>
  );
}

/** One card of the grid of clients' (or debtors') current limits. */
export function ClientLimitCard({ client, requestHref }: { client: ClientLimitDto; requestHref: string | null }) {
  const { t } = useTranslation();
  return (
    <Card size="2" data-testid={client.partyType === 'client' ? 'client-limit' : 'customer-limit'} data-client-id={client.id}>
      <Flex direction="column" gap="2">
        <Heading as="h3" size="3">
          <Link to={partyHref(client.partyType, client.id)}>{client.companyName}</Link>
        </Heading>
        <Flex justify="between" gap="3">
          <Flex direction="column">
            <Text size="1" color="gray">
              {t('limits.grid.creditLimit')}
            </Text>
            <Text size="3" weight="bold" data-testid="credit-limit">
              {eur0(client.creditLimit)}
            </Text>
          </Flex>
          <Flex direction="column" align="end">
            <Text size="1" color="gray">
              {t(client.partyType === 'client' ? 'limits.grid.usedCredit' : 'limits.grid.usedCreditCustomer')}
            </Text>
            <Text size="2" data-testid="used-credit">
              {eur0(client.usedCredit)}
            </Text>
          </Flex>
        </Flex>
        <UtilisationBar percent={client.utilisation} />
        <Flex justify="between" align="center" gap="2" wrap="wrap">
          <Text size="1" color={client.availableCredit < 0 ? 'red' : 'gray'} data-testid="available-credit">
            {t('limits.grid.available')}: {eur0(client.availableCredit)}
          </Text>
          {client.validUntil ? (
            <Text size="1" color="gray">
              {t('limits.grid.validUntil', { date: formatDate(client.validUntil) })}
            </Text>
          ) : null}
        </Flex>
        {requestHref ? (
          <Flex justify="end">
            <Button asChild size="1" variant="ghost">
              <Link to={requestHref}>{t('limits.grid.requestChange')}</Link>
            </Button>
          </Flex>
        ) : null}
      </Flex>
    </Card>
  );
}
