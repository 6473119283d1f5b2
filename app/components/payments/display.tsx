import { Badge } from '@radix-ui/themes';
import { useTranslation } from 'react-i18next';

/** The status badges of /payments. */

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
