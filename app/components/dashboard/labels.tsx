import { useTranslation } from 'react-i18next';
import type { ActivityStatus, IntegrationDisplay } from '~/dashboard/display.ts';

type Color = 'green' | 'blue' | 'red' | 'gray' | 'amber' | 'indigo';

/** docs/screens.md: active green, in development accent, error red, the rest muted. */
export const INTEGRATION_COLORS: Record<IntegrationDisplay, Color> = {
  active: 'green',
  in_development: 'indigo',
  error: 'red',
  inactive: 'gray',
};

/** docs/screens.md: urgent and high destructive, medium accent, normal secondary, low primary. */
export const PRIORITY_COLORS: Record<string, Color> = {
  urgent: 'red',
  high: 'red',
  medium: 'indigo',
  normal: 'gray',
  low: 'blue',
};

export const STATUS_COLORS: Record<ActivityStatus, Color> = {
  approved: 'green',
  processing: 'blue',
  completed: 'gray',
  attention: 'amber',
};

/** 'invoice_reopened' → 'Invoice reopened', for actions without their own text. */
export function humanizeAction(action: string): string {
  const text = action.replace(/_/g, ' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The human text of a logged action: its own translation where there is one. */
export function ActivityLabel({ action }: { action: string; entityType?: string | null }) {
  const { t, i18n } = useTranslation();
  const key = `dashboard.activities.actions.${action}`;
  return <>{i18n.exists(key) ? t(key) : humanizeAction(action)}</>;
}
