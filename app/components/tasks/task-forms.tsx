import { getFormProps, getInputProps, type FieldMetadata, type SubmissionResult } from '@conform-to/react';
import { Card, Flex, Grid, Heading } from '@radix-ui/themes';
import { Form, useNavigation } from '@remix-run/react';
import { useEffect, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Field, FormErrors } from '~/components/forms.tsx';
import { Options, SelectField, SubmitRow, TextAreaField } from '~/components/kit/fields.tsx';
import { TASK_PRIORITIES, TASK_TYPES, taskCreateSchema, taskEditFormSchema } from '~/tasks/schemas.ts';
import { useRefusalTexts } from '~/components/refusal-text.ts';
import type { UserOption } from './task-card.tsx';
import { CreateFormDialog, CreateFormPanel, type CreateFormSpec } from '~/components/kit/create-form.tsx';
import { useZodForm } from '~/components/kit/zod-form.ts';
import { useToast } from '~/components/toaster.tsx';

/**
 * The new-task dialog (JavaScript, through a fetcher) and the same form as a
 * panel for `?new=1` (a plain post, without JavaScript); the edit form of an
 * open task (`?edit=<id>`). One zod schema validates in the browser and again
 * on the server.
 */
export type TaskFormResult = SubmissionResult<string[]>;
export interface TaskFormData {
  intent: 'create' | 'edit';
  id?: string;
  result: TaskFormResult;
  created?: boolean;
}
// Any field of either form; only name, id, constraints and errors are read.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyField = FieldMetadata<any, any, string[]>;

/** The fields both forms share: title, description, priority, assignee, due date, notes; `withType` adds the type. */
function TaskFields({ fields, users, withType }: { fields: Record<string, AnyField>; users: UserOption[]; withType: boolean }) {
  const { t } = useTranslation();
  const errorText = useRefusalTexts();
  return (
    <Flex direction="column" gap="3">
      <Field label={t('tasks.fields.title')} inputProps={getInputProps(fields.title, { type: 'text' })} errors={errorText(fields.title.errors)} />
      <TextAreaField label={t('tasks.fields.description')} meta={fields.description} errors={errorText(fields.description.errors)} />
      <Grid columns={{ initial: '1', sm: '2' }} gap="3">
        {withType ? (
          <SelectField label={t('tasks.fields.type')} meta={fields.type} errors={errorText(fields.type.errors)}>
            <option value="">{t('tasks.fields.chooseType')}</option>
            <Options items={TASK_TYPES} label={(type) => t(`tasks.type.${type}`)} />
          </SelectField>
        ) : null}
        <SelectField label={t('tasks.fields.priority')} meta={fields.priority} errors={errorText(fields.priority.errors)}>
          <Options items={TASK_PRIORITIES} label={(priority) => t(`tasks.priority.${priority}`)} />
        </SelectField>
        <SelectField label={t('tasks.fields.assignedTo')} meta={fields.assignedTo} errors={errorText(fields.assignedTo.errors)}>
          <option value="">{t('tasks.card.unassigned')}</option>
          <Options items={users} value={(user) => user.id} label={(user) => user.name} />
        </SelectField>
        <Field label={t('tasks.fields.dueDate')} inputProps={getInputProps(fields.dueDate, { type: 'date' })} errors={errorText(fields.dueDate.errors)} />
      </Grid>
      <TextAreaField label={t('tasks.fields.notes')} meta={fields.notes} errors={errorText(fields.notes.errors)} />
    </Flex>
  );
}

const CREATE_FORM: CreateFormSpec<typeof taskCreateSchema> = {
  name: 'task',
  schema: taskCreateSchema,
  defaultValue: { priority: 'medium' },
  texts: { title: 'tasks.dialogTitle', description: 'tasks.dialogDescription', cancel: 'tasks.cancel', save: 'tasks.create', saving: 'tasks.saving' },
  failureToast: { title: 'tasks.toast.errorTitle', description: 'tasks.toast.createFailed', variant: 'destructive' },
  maxWidth: '640px',
  testId: 'create-panel',
};

/** A task about a record (`?new=1&entityType=client&entityId=…` from another page) keeps the link in hidden fields. */
function EntityInputs({ entity }: { entity: { type: string; id: string } | null }) {
  if (!entity) return null;
  return (
    <>
      <input type="hidden" name="entityType" value={entity.type} />
      <input type="hidden" name="entityId" value={entity.id} />
    </>
  );
}

/** What both frames of the create form are told: the assignable users and the record a task is about. */
interface NewTaskProps {
  users: UserOption[];
  entity: { type: string; id: string } | null;
}

export function NewTaskDialog({ users, entity, open, onOpenChange }: NewTaskProps & { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <CreateFormDialog spec={CREATE_FORM} open={open} onOpenChange={onOpenChange}>
      {(fields, form) => (
        <>
          <EntityInputs entity={entity} />
          <NewTaskFields fields={fields} formErrors={form.errors} users={users} />
        </>
      )}
    </CreateFormDialog>
  );
}

export function NewTaskPanel({ users, entity, lastResult, cancelTo }: NewTaskProps & { lastResult?: TaskFormResult; cancelTo: string }) {
  return (
    <CreateFormPanel spec={CREATE_FORM} lastResult={lastResult} cancelTo={cancelTo} hidden={<EntityInputs entity={entity} />}>
      {(fields, form) => <NewTaskFields fields={fields} formErrors={form.errors} users={users} />}
    </CreateFormPanel>
  );
}

/** The create form's body: every field, the type included, and the refusals of the whole form. */
function NewTaskFields({ fields, formErrors, users }: { fields: Record<string, AnyField>; formErrors?: string[]; users: UserOption[] }) {
  return (
    <>
      <TaskFields fields={fields} users={users} withType />
      <FormErrors errors={formErrors} />
    </>
  );
}

/** The edit form of an open task (docs/lifecycle.md#tasks: title, description, priority, assignee, due date, notes). */
export function EditTaskPanel({
  task,
  users,
  lastResult,
  cancelTo,
}: {
  task: { id: string; title: string; description: string | null; priority: string; assignedTo: string | null; dueDay: string; notes: string | null };
  users: UserOption[];
  lastResult?: TaskFormResult;
  cancelTo: string;
}) {
  const { t } = useTranslation();
  const toast = useToast();
  const navigation = useNavigation();
  const headingId = useId();
  const saving = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'edit';
  const [form, fields] = useZodForm(taskEditFormSchema, {
    id: `edit-task-${task.id}`,
    lastResult,
    defaultValue: {
      title: task.title,
      description: task.description ?? '',
      priority: task.priority,
      assignedTo: task.assignedTo ?? '',
      dueDate: task.dueDay,
      notes: task.notes ?? '',
    },
  });
  useEffect(() => {
    if (lastResult?.status === 'error') toast({ title: 'tasks.toast.errorTitle', description: 'tasks.toast.updateFailed', variant: 'destructive' });
  }, [lastResult, toast]);
  return (
    <Card size="3" data-testid="edit-panel" aria-labelledby={headingId} role="region">
      <Form method="post" preventScrollReset {...getFormProps(form)}>
        <input type="hidden" name="intent" value="edit" />
        <input type="hidden" name="id" value={task.id} />
        <Flex direction="column" gap="3">
          <Heading as="h2" size="4" id={headingId}>
            {t('tasks.editTitle')}
          </Heading>
          <TaskFields fields={fields} users={users} withType={false} />
          <FormErrors errors={form.errors} />
          <SubmitRow cancel={{ to: cancelTo, label: t('tasks.cancel') }} submitLabel={t('tasks.save')} busyLabel={t('tasks.saving')} busy={saving} />
        </Flex>
      </Form>
    </Card>
  );
}
