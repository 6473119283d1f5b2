import { Badge } from '@radix-ui/themes';
import { useTranslation } from 'react-i18next';

/** Badges, skeletons and the error texts of /email-automation (docs/screens.md). */

const CAMPAIGN_COLORS: Record<string, 'gray' | 'blue' | 'amber' | 'green' | 'red'> = {
  draft: 'gray',
  active: 'blue',
  sending: 'amber',
  completed: 'green',
  failed: 'red',
};
const LOG_COLORS: Record<string, 'gray' | 'blue' | 'green' | 'violet' | 'red' | 'amber'> = {
  queued: 'amber',
  sent: 'blue',
  delivered: 'blue',
  opened: 'green',
  clicked: 'violet',
  failed: 'red',
};

/** Unknown statuses display raw with a neutral badge (docs/screens.md). */
export function CampaignStatusBadge({ status }: { status: string }) {
  const { t } = useTranslation();
  const known = Object.hasOwn(CAMPAIGN_COLORS, status);
  return <Badge color={known ? CAMPAIGN_COLORS[status] : 'gray'}>{known ? t(`email.campaignStatus.${status}`) : status}</Badge>;
}

export function LogStatusBadge({ status }: { status: string }) {
  const { t } = useTranslation();
  const known = Object.hasOwn(LOG_COLORS, status);
  return <Badge color={known ? LOG_COLORS[status] : 'gray'}>{known ? t(`email.logStatus.${status}`) : status}</Badge>;
}
