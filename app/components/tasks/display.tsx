import { Badge, Flex } from '@radix-ui/themes';
import { useTranslation } from 'react-i18next';
import type { TaskPriority, TaskStatus } from '~/tasks/schemas.ts';
import { ValueBadge } from '~/components/kit/value-badge.tsx';

/** Badges and message texts of /tasks (docs/screens.md: priority colours, statuses, the late badge). */

// docs/screens.md: urgent and high destructive, medium accent, normal secondary, low primary.
const PRIORITY_COLOURS = { urgent: 'red', high: 'red', medium: 'iris', normal: 'gray', low: 'blue' } as const;
const PRIORITY_VARIANTS = { urgent: 'solid', high: 'soft', medium: 'soft', normal: 'soft', low: 'outline' } as const;
const STATUS_COLOURS = { pending: 'amber', in_progress: 'blue', completed: 'green', cancelled: 'gray' } as const;

function PriorityBadge({ priority }: { priority: TaskPriority }) {
  const { t } = useTranslation();
  return (
    <Badge color={PRIORITY_COLOURS[priority] ?? 'gray'} variant={PRIORITY_VARIANTS[priority] ?? 'soft'} data-testid="task-priority">
      {t(`tasks.priority.${priority}`)}
    </Badge>
  );
}

function TaskStatusBadge({ status }: { status: TaskStatus }) {
  return <ValueBadge value={status} colours={STATUS_COLOURS} labels="tasks.status" testId="task-status" />;
}

function LateBadge() {
  const { t } = useTranslation();
  return (
    <Badge color="red" variant="solid" data-testid="late-badge">
      {t('tasks.card.late')}
    </Badge>
  );
}

/** A task's badges beside its title (card and detail): late, priority, status. */
export function TaskBadges({ task }: { task: { isLate: boolean; priority: TaskPriority; status: TaskStatus } }) {
  return (
    <Flex gap="1" wrap="wrap" justify="end">
      {task.isLate ? <LateBadge /> : null}
      <PriorityBadge priority={task.priority} />
      <TaskStatusBadge status={task.status} />
    </Flex>
  );
}
