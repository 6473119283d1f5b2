import { Badge } from '@radix-ui/themes';
import { useTranslation } from 'react-i18next';
import { EMAIL_MESSAGES } from '~/email/schemas.ts';

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

const ERROR_KEYS: Record<string, string> = Object.fromEntries(
  (Object.entries(EMAIL_MESSAGES) as [string, string][]).map(([key, message]) => [message, `email.errors.${key}`]),
);

/** Server and schema messages shown in the chosen language (a line-numbered template problem stays as it came). */
export function useEmailErrorText() {
  const { t, i18n } = useTranslation();
  return (errors?: string[] | null) =>
    errors?.map((error) => (ERROR_KEYS[error] && i18n.exists(ERROR_KEYS[error]) ? t(ERROR_KEYS[error]) : error));
}
