import { useTranslation } from 'react-i18next';
import { LightBadge } from './light.tsx';

type BadgeColour = NonNullable<Parameters<typeof LightBadge>[0]['color']>;

/**
 * The badge of a stored value (a status, a risk category): its colour from the
 * page's table (gray for a value the table leaves out), its text the value's
 * i18n key under `labels` (`clients.status` → `clients.status.active`).
 */
export function ValueBadge<Value extends string>({
  value,
  colours,
  labels,
  testId,
}: {
  value: Value;
  colours: Partial<Record<Value, BadgeColour>>;
  labels: string;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <LightBadge color={colours[value] ?? 'gray'} data-testid={testId}>
      {t(`${labels}.${value}`, { defaultValue: value })}
    </LightBadge>
  );
}
