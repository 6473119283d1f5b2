import { LightBadge, LightText, Meter, Stack } from '~/components/kit/light.tsx';
import { useTranslation } from 'react-i18next';
import { ValueBadge } from '~/components/kit/value-badge.tsx';

/** Colours and badges (docs/screens.md) of the client and customer screens. */

export type ClientStatus = 'active' | 'pending' | 'inactive';
const STATUS_COLOURS = { active: 'green', pending: 'amber', inactive: 'gray' } as const;

export function ClientStatusBadge({ status }: { status: ClientStatus }) {
  return <ValueBadge value={status} colours={STATUS_COLOURS} labels="clients.status" testId="client-status" />;
}

/** Customers are 'Blokiran' when FINA reports the account blocked, otherwise 'Aktivan'. */
export function CustomerStatusBadge({ accountBlocked }: { accountBlocked: boolean }) {
  const { t } = useTranslation();
  return (
    <LightBadge color={accountBlocked ? 'red' : 'green'} data-testid="customer-status">
      {accountBlocked ? t('customers.blocked') : t('customers.active')}
    </LightBadge>
  );
}

/** ≥ 80 good, 60–79 warning, < 60 destructive. */
export function riskColour(score: number): 'green' | 'amber' | 'red' {
  if (score >= 80) return 'green';
  if (score >= 60) return 'amber';
  return 'red';
}

export function RiskScore({ score }: { score: number | null }) {
  const { t } = useTranslation();
  if (score === null) {
    return (
      <LightText size="2" color="gray" data-testid="risk-score">
        {t('clients.card.notAssessed')}
      </LightText>
    );
  }
  return (
    <LightText size="2" weight="bold" color={riskColour(score)} data-testid="risk-score">
      {score}/100
    </LightText>
  );
}

/** Red over 90 %, amber over 70 %, otherwise green. */
export function usageColour(percent: number): 'red' | 'amber' | 'green' {
  if (percent > 90) return 'red';
  if (percent > 70) return 'amber';
  return 'green';
}

/** usedCredit / creditLimit in percent (display only; 0 without a limit). */
export function usagePercent(used: number, limit: number | null): number {
  if (!limit || limit <= 0) return 0;
  return (used / limit) * 100;
}

/** The credit-usage bar, capped at 100 % (docs/screens.md). */
export function CreditUsageBar({ used, limit }: { used: number; limit: number | null }) {
  const { t } = useTranslation();
  const percent = usagePercent(used, limit);
  const shown = Math.min(100, percent);
  const label = t('clients.card.usage', { percent: Math.round(percent) });
  return (
    <Stack direction="column" gap="1">
      <Meter value={shown} max={100} color={usageColour(percent)} aria-label={label} data-testid="credit-usage" data-percent={Math.round(shown)} />
      <LightText size="1" color="gray">
        {label}
      </LightText>
    </Stack>
  );
}
