import { Button, Card, DataList, Flex, Heading, Link as RadixLink, Text } from '@radix-ui/themes';
import { Link } from '@remix-run/react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { TaskDetailDto } from '~/tasks/tasks.server.ts';
import { formatDate, formatDateTime } from '~/utils/format.ts';
import { TaskBadges } from './display.tsx';
import { KycPanel } from '~/components/kyc/kyc-panel.tsx';
import type { KycApplication } from '~/onboarding/kyc-decision.server.ts';
import type { KycRefusalData } from '~/onboarding/kyc-page.server.ts';
import { DecisionLink, EntityLine, isKycDecisionTask, TaskActionForm } from './task-card.tsx';
import { Fact } from '~/components/kit/light.tsx';

/** The details view of one task (`?task=<id>`): every field, its links, the workflow step and its history. */
export function TaskDetailPanel({
  task,
  closeTo,
  editTo,
  kyc,
  canDecideKyc = false,
  kycRefusal,
}: {
  task: TaskDetailDto;
  closeTo: string;
  editTo: string;
  /** For a KYC task: its client's review, decided here instead of completing the task. */
  kyc?: KycApplication | null;
  canDecideKyc?: boolean;
  kycRefusal?: KycRefusalData | null;
}) {
  const { t } = useTranslation();
  const headingId = useId();
  const open = task.status === 'pending' || task.status === 'in_progress';
  // Completing or cancelling a KYC task of an undecided application is refused: its panel decides instead.
  // So is closing the review of a pending invoice or payment: its decision link takes the place of both.
  const decides = (Boolean(kyc?.pending) && isKycDecisionTask(task)) || Boolean(task.awaitsDecision);
  const dash = '—';
  return (
    <Card size="3" data-testid="task-detail" role="region" aria-labelledby={headingId}>
      <Flex direction="column" gap="3">
        <Flex justify="between" align="start" gap="2" wrap="wrap">
          <Heading as="h2" size="4" id={headingId}>
            {task.title}
          </Heading>
          <TaskBadges task={task} />
        </Flex>
        {task.description ? (
          <Text size="2" style={{ whiteSpace: 'pre-line' }}>
            {task.description}
          </Text>
        ) : null}
        <DataList.Root size="2">
          <Fact label={t('tasks.card.type')}>{t(`tasks.type.${task.type}`)}</Fact>
          <Fact label={t('tasks.card.assignee')}>{task.assignedToName ?? t('tasks.card.unassigned')}</Fact>
          <Fact label={t('tasks.card.due')}>{task.dueDate ? formatDateTime(task.dueDate) : t('tasks.card.noDue')}</Fact>
          <Fact label={t('tasks.detail.createdAt')}>
            {formatDateTime(task.createdAt)} · {task.createdByName ?? t('tasks.detail.system')}
          </Fact>
          <Fact label={t('tasks.card.completedAt')} data-testid="detail-completed-at">
            {task.completedAt ? formatDateTime(task.completedAt) : dash}
          </Fact>
          <DataList.Item>
            <DataList.Label>{t('tasks.fields.notes')}</DataList.Label>
            <DataList.Value style={{ whiteSpace: 'pre-line' }}>{task.notes || dash}</DataList.Value>
          </DataList.Item>
          {task.entityType ? (
            <Fact label={t('tasks.detail.entity')}>
              <EntityLine task={task} />
            </Fact>
          ) : null}
          {task.workflow ? (
            <Fact label={t('tasks.card.workflow')}>
              <Flex direction="column" gap="1" data-testid="detail-workflow">
                <RadixLink asChild>
                  <Link to={task.workflow.href}>{task.workflow.name}</Link>
                </RadixLink>
                {task.workflow.stepIndex !== null ? (
                  <Text size="2">{t('tasks.card.workflowStep', { step: task.workflow.stepIndex + 1, count: task.workflow.stepCount, name: task.workflow.stepName ?? '' })}</Text>
                ) : null}
                <Text size="1" color="gray">
                  {t('tasks.detail.instanceStatus', { status: task.workflow.status })}
                </Text>
              </Flex>
            </Fact>
          ) : null}
        </DataList.Root>
        <Flex direction="column" gap="1">
          <Heading as="h3" size="3">
            {t('tasks.detail.history')}
          </Heading>
          {task.history.length === 0 ? (
            <Text size="2" color="gray">
              {t('tasks.detail.noHistory')}
            </Text>
          ) : (
            <ul data-testid="task-history" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
              {task.history.map((entry, index) => (
                <li key={`${entry.createdAt}-${index}`}>
                  <Text size="2">
                    {t(`tasks.history.${entry.action}`, { defaultValue: entry.action })} · {entry.userName ?? t('tasks.detail.system')} · {formatDate(entry.createdAt)}
                  </Text>
                </li>
              ))}
            </ul>
          )}
        </Flex>
        {kyc ? <KycPanel application={kyc} canDecide={canDecideKyc} refusal={kycRefusal} headingLevel="h3" /> : null}
        <Flex gap="2" justify="end" wrap="wrap">
          {task.status === 'pending' ? <TaskActionForm id={task.id} intent="start" label={t('tasks.actions.start')} /> : null}
          {task.status === 'in_progress' && !decides ? <TaskActionForm id={task.id} intent="complete" label={t('tasks.actions.complete')} color="green" /> : null}
          {task.awaitsDecision ? <DecisionLink task={task} /> : null}
          {open ? (
            <Button asChild size="1" variant="soft">
              <Link to={editTo}>{t('tasks.actions.edit')}</Link>
            </Button>
          ) : null}
          {open && !decides ? <TaskActionForm id={task.id} intent="cancel" label={t('tasks.actions.cancelTask')} color="red" variant="soft" /> : null}
          <Button asChild size="1" variant="ghost" color="gray">
            <Link to={closeTo}>{t('tasks.actions.close')}</Link>
          </Button>
        </Flex>
      </Flex>
    </Card>
  );
}
