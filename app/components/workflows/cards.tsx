import { Badge, Button, Card, Flex, Progress, Text } from '@radix-ui/themes';
import { Form, Link } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '~/utils/format.ts';
import type { WorkflowDefinitionDto } from '~/workflows/definitions.server.ts';
import type { WorkflowInstanceListItem } from '~/workflows/instances.server.ts';

/** docs/screens.md: a definition card shows the first 4 steps and a count of the rest. */
export const STEPS_SHOWN = 4;

const STATUS_COLOUR = { running: 'blue', completed: 'green', failed: 'red', paused: 'amber' } as const;

export function StatusBadge({ status }: { status: string }) {
  const { t } = useTranslation();
  const colour = STATUS_COLOUR[status as keyof typeof STATUS_COLOUR];
  // Unknown statuses show raw with a neutral badge.
  return (
    <Badge color={colour ?? 'gray'} data-testid="status-badge">
      {colour ? t(`workflows.status.${status}`) : status}
    </Badge>
  );
}

export function Counter({ status, count }: { status: keyof typeof STATUS_COLOUR; count: number }) {
  const { t } = useTranslation();
  return (
    <Card size="2" data-testid={`counter-${status}`}>
      <Flex direction="column" gap="1">
        <Text size="2" color="gray">
          {t(`workflows.counters.${status}`)}
        </Text>
        <Text size="7" weight="bold" color={STATUS_COLOUR[status]} data-testid="counter-value">
          {count}
        </Text>
      </Flex>
    </Card>
  );
}

/** One intent button posting to the page action (works without JavaScript). */
export function IntentButton({ intent, id, label, color }: { intent: string; id: string; label: string; color?: 'red' | 'amber' | 'green' }) {
  return (
    <Form method="post" preventScrollReset>
      <input type="hidden" name="id" value={id} />
      <Button type="submit" name="intent" value={intent} size="1" variant="soft" color={color}>
        {label}
      </Button>
    </Form>
  );
}

export function InstanceCard({ instance, detailsHref, canRun }: { instance: WorkflowInstanceListItem; detailsHref: string; canRun: boolean }) {
  const { t } = useTranslation();
  const current = Math.min(instance.currentStep, instance.totalSteps);
  return (
    <Card size="2" data-testid="instance-card" data-instance-id={instance.id} data-status={instance.status}>
      <Flex direction="column" gap="2">
        <Flex justify="between" align="center" gap="3" wrap="wrap">
          <Flex direction="column">
            <Text weight="bold">{instance.workflowName}</Text>
            <Text size="1" color="gray">
              {t(`workflows.types.${instance.workflowType}`)}
            </Text>
          </Flex>
          <StatusBadge status={instance.status} />
        </Flex>
        <Text size="2">
          {t('workflows.card.entity')}: {t(`workflows.entityTypes.${instance.entityType}`)} · {instance.entityName ?? instance.entityId}
        </Text>
        <Progress value={instance.progress} aria-label={t('workflows.card.progress', { current, total: instance.totalSteps, percent: instance.progress })} />
        <Text size="1" color="gray" data-testid="instance-progress">
          {t('workflows.card.progress', { current, total: instance.totalSteps, percent: instance.progress })}
          {instance.currentStepName && instance.status !== 'completed' ? ` · ${instance.currentStepName}` : ''}
        </Text>
        <Text size="1" color="gray">
          {t('workflows.card.started')}: {formatDateTime(instance.startedAt)}
          {instance.startEvent ? ` ${t(`workflows.startEvents.${instance.startEvent}`)}` : ''}
          {instance.completedAt ? ` · ${t('workflows.card.completed')}: ${formatDateTime(instance.completedAt)}` : ''}
        </Text>
        {instance.lastError && instance.status !== 'completed' ? (
          <Text size="1" color="red">
            {t('workflows.card.lastError')}: {instance.lastError}
          </Text>
        ) : null}
        <Flex gap="2" wrap="wrap">
          <Button asChild size="1" variant="soft" color="gray">
            <Link to={detailsHref} preventScrollReset>
              {t('workflows.actions.details')}
            </Link>
          </Button>
          {canRun && instance.status === 'running' ? <IntentButton intent="pause" id={instance.id} label={t('workflows.actions.pause')} color="amber" /> : null}
          {canRun && instance.status === 'paused' ? <IntentButton intent="resume" id={instance.id} label={t('workflows.actions.resume')} color="green" /> : null}
          {canRun && instance.status === 'failed' ? <IntentButton intent="restart" id={instance.id} label={t('workflows.actions.restart')} color="red" /> : null}
        </Flex>
      </Flex>
    </Card>
  );
}

export function DefinitionCard({ definition, editHref, testHref, canEdit }: { definition: WorkflowDefinitionDto; editHref: string; testHref: string; canEdit: boolean }) {
  const { t } = useTranslation();
  const shown = definition.steps.slice(0, STEPS_SHOWN);
  const rest = definition.steps.length - shown.length;
  return (
    <Card size="2" data-testid="definition-card" data-definition-id={definition.id}>
      <Flex direction="column" gap="2">
        <Flex justify="between" align="center" gap="3" wrap="wrap">
          <Flex direction="column">
            <Text weight="bold">{definition.name}</Text>
            <Text size="1" color="gray">
              {t(`workflows.types.${definition.type}`)} · {t('workflows.card.steps', { count: definition.steps.length })}
            </Text>
          </Flex>
          <Badge color={definition.isActive ? 'green' : 'gray'} data-testid="active-badge">
            {definition.isActive ? t('workflows.card.active') : t('workflows.card.inactive')}
          </Badge>
        </Flex>
        {definition.description ? (
          <Text size="2" color="gray">
            {definition.description}
          </Text>
        ) : null}
        <ol style={{ margin: 0, paddingInlineStart: '1.25rem' }}>
          {shown.map((step, index) => (
            <li key={index} data-testid="definition-step">
              <Text size="2">
                {step.name} <Badge variant="outline">{t(`workflows.stepTypes.${step.type}`)}</Badge>
              </Text>
            </li>
          ))}
        </ol>
        {rest > 0 ? (
          <Text size="1" color="gray" data-testid="more-steps">
            {t('workflows.card.moreSteps', { count: rest })}
          </Text>
        ) : null}
        {canEdit ? (
          <Flex gap="2" wrap="wrap">
            <Button asChild size="1" variant="soft">
              <Link to={editHref} preventScrollReset>
                {t('workflows.actions.edit')}
              </Link>
            </Button>
            {definition.isActive ? (
              <IntentButton intent="deactivate" id={definition.id} label={t('workflows.actions.deactivate')} color="amber" />
            ) : (
              <IntentButton intent="activate" id={definition.id} label={t('workflows.actions.activate')} color="green" />
            )}
            <Button asChild size="1" variant="soft" color="gray">
              <Link to={testHref} preventScrollReset>
                {t('workflows.actions.test')}
              </Link>
            </Button>
          </Flex>
        ) : null}
      </Flex>
    </Card>
  );
}
