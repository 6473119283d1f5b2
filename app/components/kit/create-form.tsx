import { getFormProps, type DefaultValue, type FormMetadata, type SubmissionResult } from '@conform-to/react';
import { PlusIcon } from '@radix-ui/react-icons';
import { Button, Card, Dialog, Flex, Heading, Text } from '@radix-ui/themes';
import { Form, Link, useFetcher, useNavigation, type FetcherWithComponents } from '@remix-run/react';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type * as z from 'zod';
import { SubmitRow } from '~/components/kit/fields.tsx';
import { useZodForm, type ZodFormFields } from '~/components/kit/zod-form.ts';
import { useToast } from '~/components/toaster.tsx';
import type { ToastInput } from '~/utils/toast.ts';

/**
 * The create-form pattern of every list page: an 'Add …' button that is a
 * link to the page's `?new=1` panel (`CreatePanel`, a plain form post that
 * works without JavaScript) and, when JavaScript runs, opens the same fields
 * in `CreateDialog` instead. `useCreateDialog` holds the dialog's open state.
 */
export function useCreateDialog() {
  const [open, setOpen] = useState(false);
  const show = useCallback(() => setOpen(true), []);
  return { open, onOpenChange: setOpen, show };
}

/** The 'Add …' button: `to` is the `?new=1` address of the panel; with JavaScript the click calls `onOpen` instead. */
export function CreateButton({ to, onOpen, label, variant }: { to: string; onOpen: () => void; label: string; variant?: 'solid' | 'soft' }) {
  return (
    <Button asChild variant={variant}>
      <Link
        to={to}
        onClick={(event) => {
          event.preventDefault();
          onOpen();
        }}
      >
        <PlusIcon /> {label}
      </Link>
    </Button>
  );
}

/** What a create form's dialog and its `?new=1` panel both say, written once per form and spread into both. */
export interface CreateTexts {
  title: string;
  description: string;
  labels: { cancel: string; save: string; saving: string };
}

interface CreateResult {
  created?: boolean;
  result?: { status?: string };
}

/**
 * The JavaScript twin of a page's `?new=1` create panel, shared by every
 * area: a Radix dialog whose form posts its `intent` (default `create`) through a fetcher,
 * closes on success (the success toast comes from the server) and shows the
 * area's failure toast when the server refused (its field errors stay in the form).
 */
export function CreateDialog<Data extends CreateResult>({
  open,
  onOpenChange,
  fetcher,
  form,
  title,
  description,
  maxWidth = '560px',
  failureToast,
  labels,
  intent = 'create',
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  fetcher: FetcherWithComponents<Data>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  form: FormMetadata<any, string[]>;
  title: string;
  description: string;
  maxWidth?: string;
  failureToast: ToastInput;
  labels: { cancel: string; save: string; saving: string };
  /** The action's intent for this form (pages with several create forms tell them apart). */
  intent?: string;
  children: React.ReactNode;
}) {
  const toast = useToast();
  const saving = fetcher.state !== 'idle';
  useEffect(() => {
    if (fetcher.state !== 'idle' || !fetcher.data) return;
    if (fetcher.data.created) onOpenChange(false);
    else if (fetcher.data.result?.status === 'error') toast(failureToast);
    // Only a new answer from the server matters, not a re-render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [fetcher.state, fetcher.data]);

  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Content maxWidth={maxWidth}>
        <Dialog.Title as="h2">{title}</Dialog.Title>
        <Dialog.Description size="2" mb="3" color="gray">
          {description}
        </Dialog.Description>
        <fetcher.Form method="post" {...getFormProps(form)}>
          <input type="hidden" name="intent" value={intent} />
          <input type="hidden" name="via" value="dialog" />
          <Flex direction="column" gap="3">
            {children}
            <SubmitRow
              cancel={
                <Dialog.Close>
                  <Button type="button" variant="soft" color="gray">
                    {labels.cancel}
                  </Button>
                </Dialog.Close>
              }
              submitLabel={labels.save}
              busyLabel={labels.saving}
              busy={saving}
            />
          </Flex>
        </fetcher.Form>
      </Dialog.Content>
    </Dialog.Root>
  );
}

/**
 * The page's `?new=1` create panel, the twin of CreateDialog that works
 * without JavaScript: a plain form post with its `intent`, a cancel link back
 * to the list and a submit that says it is saving while the page navigates.
 */
export function CreatePanel({
  form,
  intent = 'create',
  testId,
  title,
  description,
  cancelTo,
  labels,
  hidden,
  children,
}: {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any form's fields, as CreateDialog
  form: FormMetadata<any, string[]>;
  intent?: string;
  testId: string;
  title: string;
  description?: string;
  cancelTo: string;
  labels: { cancel: string; save: string; saving: string };
  /** Hidden inputs the form carries besides its intent. */
  hidden?: React.ReactNode;
  children: React.ReactNode;
}) {
  const navigation = useNavigation();
  const saving = navigation.state === 'submitting' && navigation.formData?.get('intent') === intent;
  return (
    <Card size="3" data-testid={testId}>
      <Form method="post" {...getFormProps(form)}>
        <input type="hidden" name="intent" value={intent} />
        {hidden}
        <Flex direction="column" gap="3">
          <Heading as="h2" size="4">
            {title}
          </Heading>
          {description ? (
            <Text size="2" color="gray">
              {description}
            </Text>
          ) : null}
          {children}
          <SubmitRow cancel={{ to: cancelTo, label: labels.cancel }} submitLabel={labels.save} busyLabel={labels.saving} busy={saving} />
        </Flex>
      </Form>
    </Card>
  );
}

/**
 * A create form written once for both its frames: what `CreateFormDialog`
 * and `CreateFormPanel` share. `name` makes the ids: the dialog's form
 * `new-<name>` posting through the fetcher `create-<name>`, the panel's
 * form `new-<name>-panel`. `texts` are i18n keys.
 */
export interface CreateFormSpec<Schema extends z.ZodObject> {
  name: string;
  schema: Schema;
  defaultValue?: DefaultValue<z.input<Schema>>;
  /** The action's intent for this form; `create` unless the page has several create forms. */
  intent?: string;
  texts: { title: string; description: string; cancel: string; save: string; saving: string };
  failureToast: ToastInput;
  maxWidth?: string;
  /** Of the panel. */
  testId: string;
}

/** The form's own fields, given conform's fields and form (its form-level errors). */
type RenderFields<Schema extends z.ZodObject> = (fields: ZodFormFields<Schema>, form: ReturnType<typeof useZodForm<Schema>>[0]) => React.ReactNode;
/** What a create action answers: the form's intent, conform's result, and `created` on success. */
interface CreateAnswer extends CreateResult {
  intent?: string;
  result?: SubmissionResult<string[]>;
}

function useCreateTexts(texts: CreateFormSpec<z.ZodObject>['texts']): CreateTexts {
  const { t } = useTranslation();
  return { title: t(texts.title), description: t(texts.description), labels: { cancel: t(texts.cancel), save: t(texts.save), saving: t(texts.saving) } };
}

/** The spec's form in `CreateDialog`, fed the fetcher's last answer to this form. */
export function CreateFormDialog<Schema extends z.ZodObject>({
  spec,
  open,
  onOpenChange,
  children,
}: {
  spec: CreateFormSpec<Schema>;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  children: RenderFields<Schema>;
}) {
  const texts = useCreateTexts(spec.texts);
  const intent = spec.intent ?? 'create';
  const fetcher = useFetcher<CreateAnswer>({ key: `create-${spec.name}` });
  const answer = fetcher.data?.intent === intent ? fetcher.data.result : undefined;
  const [form, fields] = useZodForm(spec.schema, { id: `new-${spec.name}`, lastResult: answer, defaultValue: spec.defaultValue });
  return (
    <CreateDialog {...texts} open={open} onOpenChange={onOpenChange} fetcher={fetcher} form={form} intent={intent} maxWidth={spec.maxWidth} failureToast={spec.failureToast}>
      {children(fields, form)}
    </CreateDialog>
  );
}

/** The spec's form in `CreatePanel` (`?new=1`), `lastResult` the action's answer to the plain post. */
export function CreateFormPanel<Schema extends z.ZodObject>({
  spec,
  lastResult,
  cancelTo,
  hidden,
  children,
}: {
  spec: CreateFormSpec<Schema>;
  lastResult?: SubmissionResult<string[]>;
  cancelTo: string;
  hidden?: React.ReactNode;
  children: RenderFields<Schema>;
}) {
  const texts = useCreateTexts(spec.texts);
  const [form, fields] = useZodForm(spec.schema, { id: `new-${spec.name}-panel`, lastResult, defaultValue: spec.defaultValue });
  return (
    <CreatePanel {...texts} form={form} intent={spec.intent} testId={spec.testId} cancelTo={cancelTo} hidden={hidden}>
      {children(fields, form)}
    </CreatePanel>
  );
}
