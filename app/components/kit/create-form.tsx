import { getFormProps, type FormMetadata } from '@conform-to/react';
import { PlusIcon } from '@radix-ui/react-icons';
import { Button, Card, Dialog, Flex, Heading, Text } from '@radix-ui/themes';
import { Form, Link, useNavigation, type FetcherWithComponents } from '@remix-run/react';
import { useCallback, useEffect, useState } from 'react';
import { SubmitRow } from '~/components/kit/fields.tsx';
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
