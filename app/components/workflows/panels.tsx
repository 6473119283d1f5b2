import { Badge, Button, Card, Flex, Heading, Table, Text, TextField } from '@radix-ui/themes';
import { Form } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { PanelHeader } from '~/components/kit/panel-header.tsx';
import { DataTable } from '~/components/kit/data-table.tsx';
import { ErrorList, Field } from '~/components/forms.tsx';
import { Options, SelectField, TextAreaField } from '~/components/kit/fields.tsx';
import { useRefusalText } from '~/components/refusal-text.ts';
import { formatDateTime } from '~/utils/format.ts';
import type { DryRunReport } from '~/workflows/definitions.server.ts';
import type { WorkflowInstanceDetail } from '~/workflows/instances.server.ts';
import { ENTITY_TYPES_OF, STEP_TYPES, TASK_TYPES, WORKFLOW_TYPES, type WorkflowType } from '~/workflows/schemas.ts';
import { IntentButton, StatusBadge } from './cards.tsx';

/**
 * The panels of /workflows, opened by the URL (?details=, ?edit=, ?test=) so
 * they work without JavaScript: the step history, the definition editor
 * (indexed fields and intent buttons: add, remove, move up/down, save) and
 * the dry run.
 */

export function DetailsPanel({ instance, closeHref, canRun }: { instance: WorkflowInstanceDetail; closeHref: string; canRun: boolean }) {
  const { t } = useTranslation();
  return (
    <Card size="3" data-testid="instance-details">
      <PanelHeader title={`${t('workflows.details.title')} · ${instance.workflowName}`} closeHref={closeHref} closeLabel={t('workflows.actions.close')} />
      <Flex direction="column" gap="3">
        <Flex gap="3" align="center" wrap="wrap">
          <StatusBadge status={instance.status} />
          <Text size="2">
            {t(`workflows.entityTypes.${instance.entityType}`)} · {instance.entityName ?? instance.entityId}
          </Text>
          {canRun && instance.status === 'running' ? <IntentButton intent="pause" id={instance.id} label={t('workflows.actions.pause')} color="amber" /> : null}
          {canRun && instance.status === 'paused' ? <IntentButton intent="resume" id={instance.id} label={t('workflows.actions.resume')} color="green" /> : null}
          {canRun && instance.status === 'failed' ? <IntentButton intent="restart" id={instance.id} label={t('workflows.actions.restart')} color="red" /> : null}
        </Flex>
        {instance.lastError ? (
          <Text size="2" color="red">
            {t('workflows.card.lastError')}: {instance.lastError}
          </Text>
        ) : null}
        <DataTable
          size="1"
          variant="surface"
          empty={t('workflows.details.noRuns')}
          columns={[
            t('workflows.details.step'),
            t('workflows.details.attempt'),
            t('workflows.details.status'),
            t('workflows.details.started'),
            t('workflows.details.finished'),
            t('workflows.details.outcome'),
          ]}
          items={instance.stepRuns}
          rowKey={(run) => run.id}
          rowProps={() => ({ 'data-testid': 'step-run' })}
          cells={(run) => (
            <>
              <Table.Cell>
                {run.stepIndex + 1}. {run.stepName}
              </Table.Cell>
              <Table.Cell>{run.attempt}</Table.Cell>
              <Table.Cell>
                <Badge color={run.status === 'completed' ? 'green' : run.status === 'failed' ? 'red' : 'blue'}>{t(`workflows.runStatus.${run.status}`)}</Badge>
              </Table.Cell>
              <Table.Cell>{formatDateTime(run.startedAt)}</Table.Cell>
              <Table.Cell>{run.finishedAt ? formatDateTime(run.finishedAt) : '—'}</Table.Cell>
              <Table.Cell>
                {run.error ? (
                  <Text color="red" size="1">
                    {t('workflows.details.error')}: {run.error}
                  </Text>
                ) : (
                  <Text size="1">{typeof run.outcome?.summary === 'string' ? run.outcome.summary : ''}</Text>
                )}
              </Table.Cell>
            </>
          )}
        />
      </Flex>
    </Card>
  );
}

export interface DraftStep {
  name: string;
  type: string;
  handler: string;
  taskType: string;
}
export interface Draft {
  id: string | null;
  name: string;
  type: string;
  description: string;
  steps: DraftStep[];
}

export function EditorPanel({
  draft,
  handlers,
  errors,
  formError,
  closeHref,
}: {
  draft: Draft;
  handlers: string[];
  errors?: Record<string, string[]>;
  formError?: string | null;
  closeHref: string;
}) {
  const { t } = useTranslation();
  const showRefusal = useRefusalText();
  const errorsOf = (id: string) => errors?.[id]?.map(showRefusal);
  const last = draft.steps.length - 1;
  return (
    <Card size="3" data-testid="definition-editor">
      <PanelHeader title={draft.id ? t('workflows.editor.editTitle') : t('workflows.editor.newTitle')} closeHref={closeHref} closeLabel={t('workflows.actions.close')} />
      <Form method="post" preventScrollReset>
        <input type="hidden" name="definitionId" value={draft.id ?? ''} />
        {/* Enter submits with the form's first submit button: make that a (visually hidden) save, not a step button. */}
        <button type="submit" name="intent" value="save" tabIndex={-1} aria-hidden="true" style={{ position: 'absolute', left: '-9999px' }} />
        <Flex direction="column" gap="3">
          {formError ? (
            <Text color="red" role="alert">
              {showRefusal(formError)}
            </Text>
          ) : null}
          <Field label={`${t('workflows.editor.name')} *`} inputProps={{ name: 'name', defaultValue: draft.name, required: true, maxLength: 255 }} errors={errorsOf('name')} />
          <SelectField label={`${t('workflows.editor.type')} *`} name="type" errors={errorsOf('type')} selectProps={{ defaultValue: draft.type }}>
            <Options items={WORKFLOW_TYPES} label={(type) => t(`workflows.types.${type}`)} />
          </SelectField>
          <TextAreaField
            label={t('workflows.editor.description')}
            name="description"
            errors={errorsOf('description')}
            textAreaProps={{ defaultValue: draft.description, maxLength: 5000 }}
          />
          <Heading as="h4" size="3">
            {t('workflows.editor.steps')}
          </Heading>
          <ErrorList id="steps-error" errors={errorsOf('steps')} />
          {draft.steps.map((step, index) => (
            <StepEditor key={index} step={step} index={index} last={last} handlers={handlers} errorsOf={errorsOf} />
          ))}
          <Flex gap="2" justify="between" wrap="wrap">
            <Button type="submit" name="intent" value="add-step" variant="soft">
              {t('workflows.actions.addStep')}
            </Button>
            <Button type="submit" name="intent" value="save">
              {t('workflows.actions.save')}
            </Button>
          </Flex>
          {draft.id ? null : (
            <Text size="1" color="gray">
              {t('workflows.editor.inactiveNote')}
            </Text>
          )}
        </Flex>
      </Form>
    </Card>
  );
}

/**
 * One step of the editor. Each field's name carries the step's number, and so
 * does its aria-label (the visible labels repeat on every step).
 */
function StepEditor({
  step,
  index,
  last,
  handlers,
  errorsOf,
}: {
  step: DraftStep;
  index: number;
  last: number;
  handlers: string[];
  errorsOf: (id: string) => string[] | undefined;
}) {
  const { t } = useTranslation();
  const select = (name: 'type' | 'handler' | 'taskType', label: string) => ({
    label,
    name: `steps[${index}].${name}`,
    errors: errorsOf(`steps[${index}].${name}`),
    selectProps: { defaultValue: step[name], 'aria-label': `${label} ${index + 1}` },
  });
  return (
    <Card variant="surface" data-testid="editor-step">
      <Flex gap="2" align="end" wrap="wrap">
        <Text weight="bold">{index + 1}.</Text>
        <Field
          label={t('workflows.editor.stepName')}
          inputProps={{ name: `steps[${index}].name`, defaultValue: step.name, maxLength: 255, 'aria-label': `${t('workflows.editor.stepName')} ${index + 1}` }}
          errors={errorsOf(`steps[${index}].name`)}
        />
        <SelectField {...select('type', t('workflows.editor.stepType'))}>
          <Options items={STEP_TYPES} label={(type) => t(`workflows.stepTypes.${type}`)} />
        </SelectField>
        <SelectField {...select('handler', t('workflows.editor.handler'))}>
          <option value="">{t('workflows.editor.none')}</option>
          <Options items={handlers} />
        </SelectField>
        <SelectField {...select('taskType', t('workflows.editor.taskType'))}>
          <option value="">{t('workflows.editor.none')}</option>
          <Options items={TASK_TYPES} label={(type) => t(`workflows.taskTypes.${type}`)} />
        </SelectField>
        <Flex gap="1">
          <StepButton verb="move-up" index={index} label={t('workflows.actions.moveUp')} disabled={index === 0}>
            ↑
          </StepButton>
          <StepButton verb="move-down" index={index} label={t('workflows.actions.moveDown')} disabled={index === last}>
            ↓
          </StepButton>
          <StepButton verb="remove-step" index={index} label={t('workflows.actions.remove')} color="red">
            {t('workflows.actions.remove')}
          </StepButton>
        </Flex>
      </Flex>
    </Card>
  );
}

/** A step's button: posts `<verb>:<index>` as the intent (app/workflows/schemas.ts reads it). */
function StepButton({
  verb,
  index,
  label,
  color = 'gray',
  disabled,
  children,
}: {
  verb: string;
  index: number;
  label: string;
  color?: 'gray' | 'red';
  disabled?: boolean;
  children: React.ReactNode;
}) {
  return (
    <Button type="submit" name="intent" value={`${verb}:${index}`} size="1" variant="soft" color={color} disabled={disabled} aria-label={`${label} ${index + 1}`}>
      {children}
    </Button>
  );
}

export function TestPanel({
  definition,
  report,
  error,
  closeHref,
}: {
  definition: { id: string; name: string; type: WorkflowType };
  report: DryRunReport | null;
  error: string | null;
  closeHref: string;
}) {
  const { t } = useTranslation();
  const showRefusal = useRefusalText();
  const types = ENTITY_TYPES_OF[definition.type].map((type) => t(`workflows.entityTypes.${type}`)).join(' / ');
  return (
    <Card size="3" data-testid="definition-test">
      <PanelHeader title={`${t('workflows.test.title')} · ${definition.name}`} closeHref={closeHref} closeLabel={t('workflows.actions.close')} />
      <Form method="post" preventScrollReset>
        <input type="hidden" name="id" value={definition.id} />
        <Flex gap="2" align="end" wrap="wrap">
          <label>
            <Text size="2">{t('workflows.test.entityId')}</Text>
            <TextField.Root name="entityId" defaultValue={report?.entityId ?? ''} required style={{ minWidth: 340 }} />
          </label>
          <Button type="submit" name="intent" value="test">
            {t('workflows.actions.runTest')}
          </Button>
        </Flex>
        <Text size="1" color="gray">
          {t('workflows.test.entityHint', { types })}
        </Text>
      </Form>
      {error ? (
        <Text color="red" role="alert">
          {showRefusal(error)}
        </Text>
      ) : null}
      {report ? (
        <Flex direction="column" gap="2" mt="3" data-testid="dry-run-report">
          <Text weight="bold">{t('workflows.test.report')}</Text>
          <Text size="2">{t('workflows.test.entity', { name: report.entityName ?? report.entityId })}</Text>
          <ol style={{ margin: 0, paddingInlineStart: '1.25rem' }}>
            {report.steps.map((step) => (
              <li key={step.index} data-testid="dry-run-step">
                <Text size="2">
                  <Badge color={step.status === 'ok' ? 'green' : step.status === 'error' ? 'red' : 'gray'}>{t(`workflows.dryRun.${step.status}`)}</Badge> {step.name}:{' '}
                  {step.summary}
                </Text>
              </li>
            ))}
          </ol>
        </Flex>
      ) : null}
    </Card>
  );
}
