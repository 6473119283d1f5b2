import { Button, Callout, Card, Flex, Heading, Link as RadixLink, Text } from '@radix-ui/themes';
import { Link, useNavigation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import type { TaskDto } from '~/tasks/tasks.server.ts';
import { InlineSelect, Options } from '~/components/kit/fields.tsx';
import { formatDate } from '~/utils/format.ts';
import { useRefusalTexts } from '~/components/refusal-text.ts';
import { TaskBadges } from './display.tsx';
import { tasksHref, type TaskListState } from './list.tsx';
import { IntentForm } from '~/components/kit/intent-form.tsx';

/** A task's card (docs/screens.md): title, description, type, priority, status, assignee, due date, late badge, links and the buttons. */
export type TaskView = TaskDto;
export interface TaskRefusal {
  intent: string;
  id: string;
  status: number;
  message: string;
}
export interface UserOption {
  id: string;
  name: string;
}

const isOpen = (task: Pick<TaskView, 'status'>) => task.status === 'pending' || task.status === 'in_progress';

/** A client's KYC review: decided in its details view (approve, reject, request documents), not completed. */
export function isKycDecisionTask(task: Pick<TaskView, 'type' | 'entityType'>): boolean {
  return task.type === 'kyc_verification' && task.entityType === 'client';
}

/**
 * The way to the decision that closes the task: the invoice's page (verify,
 * reject), or the pending payments of its invoice (confirm, fail).
 */
export function DecisionLink({ task }: { task: Pick<TaskView, 'awaitsDecision' | 'entityHref' | 'entityLabel'> }) {
  const { t } = useTranslation();
  const to = task.awaitsDecision === 'payment' ? `/payments?tab=pending&q=${encodeURIComponent(task.entityLabel ?? '')}` : (task.entityHref ?? '/invoices');
  return (
    <Button asChild size="1" color="green">
      <Link to={to}>{t(task.awaitsDecision === 'payment' ? 'tasks.actions.decidePayment' : 'tasks.actions.decideInvoice')}</Link>
    </Button>
  );
}

/** A one-button post to the page's action (start, complete, cancel). */
export function TaskActionForm({ id, intent, label, color, variant }: { id: string; intent: string; label: string; color?: 'green' | 'red'; variant?: 'solid' | 'soft' }) {
  const navigation = useNavigation();
  const busy = navigation.state === 'submitting' && navigation.formData?.get('id') === id && navigation.formData?.get('intent') === intent;
  return (
    <IntentForm intent={intent} values={{ id }} preventScrollReset>
      <Button type="submit" size="1" color={color} variant={variant} disabled={busy}>
        {label}
      </Button>
    </IntentForm>
  );
}

export function WorkflowLine({ task }: { task: Pick<TaskView, 'workflowInstanceId' | 'workflowName' | 'workflowStep' | 'workflowStepName' | 'workflowStepCount'> }) {
  const { t } = useTranslation();
  if (!task.workflowInstanceId) return null;
  return (
    <Text size="1" data-testid="task-workflow">
      <Text color="gray">{t('tasks.card.workflow')}: </Text>
      {/* Underlined: inside a line of text, colour alone does not tell a link apart. */}
      <RadixLink asChild underline="always">
        <Link to="/workflows?tab=instances">{task.workflowName ?? t('tasks.card.workflowFallback')}</Link>
      </RadixLink>
      {task.workflowStep !== null
        ? ` · ${t('tasks.card.workflowStep', { step: task.workflowStep + 1, count: task.workflowStepCount ?? task.workflowStep + 1, name: task.workflowStepName ?? '' })}`
        : null}
    </Text>
  );
}

export function EntityLine({ task }: { task: Pick<TaskView, 'entityType' | 'entityLabel' | 'entityHref'> }) {
  const { t } = useTranslation();
  if (!task.entityType) return null;
  const label = task.entityLabel ?? t('tasks.card.entityGone');
  return (
    <Text size="1" data-testid="task-entity">
      <Text color="gray">{t(`tasks.entity.${task.entityType}`)}: </Text>
      {task.entityHref ? (
        <RadixLink asChild underline="always">
          {/* A document opens as a file from the API, which is not a page of the app. */}
          {task.entityHref.startsWith('/api/') ? <a href={task.entityHref}>{label}</a> : <Link to={task.entityHref}>{label}</Link>}
        </RadixLink>
      ) : (
        label
      )}
    </Text>
  );
}

function AssignForm({ task, users }: { task: TaskView; users: UserOption[] }) {
  const { t } = useTranslation();
  return (
    <IntentForm intent="assign" values={{ id: task.id }} preventScrollReset>
      <InlineSelect label={t('tasks.actions.assignTo', { title: task.title })} name="assignedTo" defaultValue={task.assignedTo ?? ''} submitLabel={t('tasks.actions.assign')}>
        <option value="">{t('tasks.card.unassigned')}</option>
        <Options items={users} value={(user) => user.id} label={(user) => user.name} />
      </InlineSelect>
    </IntentForm>
  );
}

export function TaskCard({ task, state, users, refusal }: { task: TaskView; state: TaskListState; users: UserOption[]; refusal: TaskRefusal | null }) {
  const { t } = useTranslation();
  const errorText = useRefusalTexts();
  const open = isOpen(task);
  return (
    <Card size="2" data-testid="task-card" data-task-id={task.id}>
      <Flex direction="column" gap="2">
        <Flex justify="between" align="start" gap="2">
          <Heading as="h3" size="3">
            {task.title}
          </Heading>
          <TaskBadges task={task} />
        </Flex>
        {task.description ? (
          <Text size="2" color="gray" data-testid="task-description" style={{ whiteSpace: 'pre-line' }}>
            {task.description}
          </Text>
        ) : null}
        <Flex gap="3" wrap="wrap">
          <Text size="1" data-testid="task-type">
            <Text color="gray">{t('tasks.card.type')}: </Text>
            {t(`tasks.type.${task.type}`)}
          </Text>
          <Text size="1" data-testid="task-assignee">
            <Text color="gray">{t('tasks.card.assignee')}: </Text>
            {task.assignedToName ?? t('tasks.card.unassigned')}
          </Text>
          <Text size="1" data-testid="task-due" color={task.isLate ? 'red' : undefined}>
            <Text color="gray">{t('tasks.card.due')}: </Text>
            {task.dueDate ? formatDate(task.dueDate) : t('tasks.card.noDue')}
          </Text>
          {task.completedAt ? (
            <Text size="1" data-testid="task-completed-at">
              <Text color="gray">{t('tasks.card.completedAt')}: </Text>
              {formatDate(task.completedAt)}
            </Text>
          ) : null}
        </Flex>
        <EntityLine task={task} />
        <WorkflowLine task={task} />
        {refusal ? (
          <Callout.Root color="red" size="1" role="alert">
            <Callout.Text>{errorText([refusal.message])?.join(' ')}</Callout.Text>
          </Callout.Root>
        ) : null}
        <Flex gap="2" wrap="wrap" align="center" pt="1">
          {task.status === 'pending' ? <TaskActionForm id={task.id} intent="start" label={t('tasks.actions.start')} /> : null}
          {open && isKycDecisionTask(task) ? (
            <Button asChild size="1" color="green">
              <Link to={tasksHref(state, { task: task.id })}>{t('tasks.actions.decideKyc')}</Link>
            </Button>
          ) : task.awaitsDecision ? (
            <DecisionLink task={task} />
          ) : task.status === 'in_progress' ? (
            <TaskActionForm id={task.id} intent="complete" label={t('tasks.actions.complete')} color="green" />
          ) : null}
          <Button asChild size="1" variant="soft" color="gray">
            <Link to={tasksHref(state, { task: task.id })}>{t('tasks.actions.details')}</Link>
          </Button>
          {open ? (
            <Button asChild size="1" variant="soft">
              <Link to={tasksHref(state, { edit: task.id })}>{t('tasks.actions.edit')}</Link>
            </Button>
          ) : null}
          {open ? <AssignForm task={task} users={users} /> : null}
        </Flex>
      </Flex>
    </Card>
  );
}
