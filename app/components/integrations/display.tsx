import { Badge } from '@radix-ui/themes';
import { useTranslation } from 'react-i18next';
import type { IntegrationStatus } from '~/integrations/types.ts';

/** Integration display (docs/screens.md): active 'Aktivno' (green), in_development 'U razvoju', error 'Greška' (red), other 'Neaktivno' (muted). */
const COLORS: Partial<Record<IntegrationStatus, 'green' | 'amber' | 'red' | 'gray' | 'blue'>> = {
  active: 'green',
  in_development: 'amber',
  error: 'red',
  testing: 'blue',
};

export function IntegrationStatusBadge({ status }: { status: IntegrationStatus }) {
  const { t } = useTranslation();
  const key = status === 'active' || status === 'in_development' || status === 'error' || status === 'testing' ? status : 'inactive';
  return (
    <Badge color={COLORS[status] ?? 'gray'} variant="soft" data-testid="integration-status">
      {t(`integrations.status.${key}`)}
    </Badge>
  );
}

export function OutcomeBadge({ success }: { success: boolean }) {
  const { t } = useTranslation();
  return (
    <Badge color={success ? 'green' : 'red'} variant="soft">
      {t(success ? 'integrations.logs.success' : 'integrations.logs.failure')}
    </Badge>
  );
}
