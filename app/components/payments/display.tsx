import { Badge, Card, Flex, Text } from '@radix-ui/themes';
import { useTranslation } from 'react-i18next';
import { formatEur } from '~/utils/format.ts';

/** Badges and summary cards of /payments (docs/screens.md: 2 decimals on payments). */

const PAYMENT_COLOURS = { pending: 'amber', confirmed: 'green', failed: 'red', refunded: 'gray' } as const;
const PAYOUT_COLOURS = { pending: 'amber', exported: 'blue', paid: 'green', cancelled: 'gray' } as const;

export function PaymentStatusBadge({ status }: { status: string }) {
  const { t } = useTranslation();
  return (
    <Badge color={PAYMENT_COLOURS[status as keyof typeof PAYMENT_COLOURS] ?? 'gray'} data-testid="payment-status">
      {t(`payments.status.${status}`, { defaultValue: status })}
    </Badge>
  );
}

export function OverdueBadge() {
  const { t } = useTranslation();
  return (
    <Badge color="red" variant="solid" data-testid="overdue-badge">
      {t('payments.overdue')}
    </Badge>
  );
}

export function PayoutStatusBadge({ status }: { status: string }) {
  const { t } = useTranslation();
  return (
    <Badge color={PAYOUT_COLOURS[status as keyof typeof PAYOUT_COLOURS] ?? 'gray'} data-testid="payout-status">
      {t(`payments.payouts.status.${status}`, { defaultValue: status })}
    </Badge>
  );
}

export function SummaryCard({ testId, label, amount, hint, colour }: { testId: string; label: string; amount: number; hint: string; colour?: 'amber' | 'green' | 'red' | 'gray' }) {
  return (
    <Card size="2" data-testid={testId}>
      <Flex direction="column" gap="1">
        <Text size="2" color="gray">
          {label}
        </Text>
        <Text size="5" weight="bold" color={colour} data-testid="summary-amount">
          {formatEur(amount)}
        </Text>
        <Text size="1" color="gray" data-testid="summary-count">
          {hint}
        </Text>
      </Flex>
    </Card>
  );
}
