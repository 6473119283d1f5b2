import { Badge } from '@radix-ui/themes';
import { useTranslation } from 'react-i18next';
import type { TaskPriority, TaskStatus } from '~/tasks/schemas.ts';

/** Badges and message texts of /tasks (docs/screens.md: priority colours, statuses, the late badge). */

// docs/screens.md: urgent and high destructive, medium accent, normal secondary, low primary.
const PRIORITY_COLOURS = { urgent: 'red', high: 'red', medium: 'iris', normal: 'gray', low: 'blue' } as const;
const PRIORITY_VARIANTS = { urgent: 'solid', high: 'soft', medium: 'soft', normal: 'soft', low: 'outline' } as const;
const STATUS_COLOURS = { pending: 'amber', in_progress: 'blue', completed: 'green', cancelled: 'gray' } as const;

export function PriorityBadge({ priority }: { priority: TaskPriority }) {
  const { t } = useTranslation();
  return (
    <Badge color={PRIORITY_COLOURS[priority] ?? 'gray'} variant={PRIORITY_VARIANTS[priority] ?? 'soft'} data-testid="task-priority">
      {t(`tasks.priority.${priority}`)}
    </Badge>
  );
}

export function TaskStatusBadge({ status }: { status: TaskStatus }) {
  const { t } = useTranslation();
  return (
    <Badge color={STATUS_COLOURS[status] ?? 'gray'} data-testid="task-status">
      {t(`tasks.status.${status}`, { defaultValue: status })}
    </Badge>
  );
}

export function LateBadge() {
  const { t } = useTranslation();
  return (
    <Badge color="red" variant="solid" data-testid="late-badge">
      {t('tasks.card.late')}
    </Badge>
  );
}
