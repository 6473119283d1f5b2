import { Badge, Button, Card, Flex, Heading, Table, Text, TextField } from '@radix-ui/themes';
import { Form } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { PanelHeader } from '~/components/kit/panel-header.tsx';
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
        {instance.stepRuns.length === 0 ? (
          <Text color="gray">{t('workflows.details.noRuns')}</Text>
        ) : (
          <Table.Root size="1" variant="surface">
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeaderCell>{t('workflows.details.step')}</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell>{t('workflows.details.attempt')}</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell>{t('workflows.details.status')}</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell>{t('workflows.details.started')}</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell>{t('workflows.details.finished')}</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell>{t('workflows.details.outcome')}</Table.ColumnHeaderCell>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {instance.stepRuns.map((run) => (
                <Table.Row key={run.id} data-testid="step-run">
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
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        )}
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
            <Card key={index} variant="surface" data-testid="editor-step">
              <Flex gap="2" align="end" wrap="wrap">
                <Text weight="bold">{index + 1}.</Text>
                {/* Each field's name carries the step's number (the visible labels repeat on every step). */}
                <Field
                  label={t('workflows.editor.stepName')}
                  inputProps={{ name: `steps[${index}].name`, defaultValue: step.name, maxLength: 255, 'aria-label': `${t('workflows.editor.stepName')} ${index + 1}` }}
                  errors={errorsOf(`steps[${index}].name`)}
                />
                <SelectField
                  label={t('workflows.editor.stepType')}
                  name={`steps[${index}].type`}
                  errors={errorsOf(`steps[${index}].type`)}
                  selectProps={{ defaultValue: step.type, 'aria-label': `${t('workflows.editor.stepType')} ${index + 1}` }}
                >
                  <Options items={STEP_TYPES} label={(type) => t(`workflows.stepTypes.${type}`)} />
                </SelectField>
                <SelectField
                  label={t('workflows.editor.handler')}
                  name={`steps[${index}].handler`}
                  errors={errorsOf(`steps[${index}].handler`)}
                  selectProps={{ defaultValue: step.handler, 'aria-label': `${t('workflows.editor.handler')} ${index + 1}` }}
                >
                  <option value="">{t('workflows.editor.none')}</option>
                  <Options items={handlers} />
                </SelectField>
                <SelectField
                  label={t('workflows.editor.taskType')}
                  name={`steps[${index}].taskType`}
                  errors={errorsOf(`steps[${index}].taskType`)}
                  selectProps={{ defaultValue: step.taskType, 'aria-label': `${t('workflows.editor.taskType')} ${index + 1}` }}
                >
                  <option value="">{t('workflows.editor.none')}</option>
                  <Options items={TASK_TYPES} label={(type) => t(`workflows.taskTypes.${type}`)} />
                </SelectField>
                <Flex gap="1">
                  <Button
                    type="submit"
                    name="intent"
                    value={`move-up:${index}`}
                    size="1"
                    variant="soft"
                    color="gray"
                    disabled={index === 0}
                    aria-label={`${t('workflows.actions.moveUp')} ${index + 1}`}
                  >
                    ↑
                  </Button>
                  <Button
                    type="submit"
                    name="intent"
                    value={`move-down:${index}`}
                    size="1"
                    variant="soft"
                    color="gray"
                    disabled={index === last}
                    aria-label={`${t('workflows.actions.moveDown')} ${index + 1}`}
                  >
                    ↓
                  </Button>
                  <Button
                    type="submit"
                    name="intent"
                    value={`remove-step:${index}`}
                    size="1"
                    variant="soft"
                    color="red"
                    aria-label={`${t('workflows.actions.remove')} ${index + 1}`}
                  >
                    {t('workflows.actions.remove')}
                  </Button>
                </Flex>
              </Flex>
            </Card>
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
