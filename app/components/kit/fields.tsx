import { getSelectProps, getTextareaProps, type FieldMetadata } from '@conform-to/react';
import { Button, Flex, Text, TextArea } from '@radix-ui/themes';
import { Link } from '@remix-run/react';
import { useId } from 'react';
import { ErrorList } from '~/components/forms.tsx';

/**
 * The form fields beside `Field` and `PasswordField` (app/components/forms.tsx):
 * a select, a text area and a checkbox of a conform form, each with its
 * visible label and its errors wired to aria-invalid / aria-describedby the
 * way `Field` does, and the row of Cancel + Submit that says it is busy.
 * `errors` replaces the field's own errors when an area translates them first.
 */
// Any field of any conform form; only its name, id, constraints and errors are read.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyFieldMetadata = FieldMetadata<any, any, string[]>;

type Errors = string[] | null | undefined;

/** The id of the field's error list while it has errors (for aria-describedby), else undefined. */
function errorIdOf(id: string, errors: Errors): string | undefined {
  return errors?.length ? `${id}-error` : undefined;
}

function Label({ htmlFor, children }: { htmlFor: string; children: React.ReactNode }) {
  return (
    <Text as="label" htmlFor={htmlFor} size="2" weight="medium">
      {children}
    </Text>
  );
}

/** A native select (works without JavaScript and with every screen reader); `children` are its options. */
export function SelectField({
  label,
  meta,
  errors = meta.errors,
  selectProps,
  hint,
  style,
  children,
}: {
  label: string;
  meta: AnyFieldMetadata;
  errors?: Errors;
  /** Of the whole field (label, select, errors). */
  style?: React.CSSProperties;
  selectProps?: Omit<React.ComponentProps<'select'>, 'children'> & { 'data-testid'?: string };
  /** A line under the select (e.g. the chosen client's current limit). */
  hint?: React.ReactNode;
  children: React.ReactNode;
}) {
  const errorId = errorIdOf(meta.id, errors);
  return (
    <Flex direction="column" gap="1" style={style}>
      <Label htmlFor={meta.id}>{label}</Label>
      <select {...getSelectProps(meta)} {...selectProps} className="native-select" aria-invalid={errorId ? true : undefined} aria-describedby={errorId}>
        {children}
      </select>
      {hint}
      <ErrorList id={errorId} errors={errors} />
    </Flex>
  );
}

/** A multi-line text (descriptions, notes, reasons). */
export function TextAreaField({
  label,
  meta,
  errors = meta.errors,
  rows = 3,
  hint,
  textAreaProps,
}: {
  label: string;
  meta: AnyFieldMetadata;
  errors?: Errors;
  rows?: number;
  /** A line under the text area that describes it while there is no error. */
  hint?: React.ReactNode;
  textAreaProps?: Omit<React.ComponentProps<typeof TextArea>, 'children'> & { 'data-testid'?: string };
}) {
  const errorId = errorIdOf(meta.id, errors);
  const hintId = hint ? `${meta.id}-hint` : undefined;
  return (
    <Flex direction="column" gap="1">
      <Label htmlFor={meta.id}>{label}</Label>
      <TextArea {...getTextareaProps(meta)} rows={rows} {...textAreaProps} aria-invalid={errorId ? true : undefined} aria-describedby={errorId ?? hintId} />
      {hint ? (
        <Text id={hintId} size="1" color="gray">
          {hint}
        </Text>
      ) : null}
      <ErrorList id={errorId} errors={errors} />
    </Flex>
  );
}

/** A native checkbox with its label beside it; posts `value` (default 'on') when ticked. */
export function CheckboxField({
  label,
  name,
  defaultChecked,
  value,
  errors,
  inputProps,
}: {
  label: string;
  name: string;
  defaultChecked?: boolean;
  value?: string;
  errors?: Errors;
  inputProps?: Omit<React.ComponentProps<'input'>, 'type' | 'name' | 'defaultChecked' | 'value'> & { 'data-testid'?: string };
}) {
  const fallbackId = useId();
  const id = inputProps?.id ?? fallbackId;
  const errorId = errorIdOf(id, errors);
  return (
    <Flex direction="column" gap="1">
      <Text as="label" size="2" htmlFor={id}>
        <Flex gap="2" align="center">
          <input {...inputProps} id={id} type="checkbox" name={name} value={value} defaultChecked={defaultChecked} aria-invalid={errorId ? true : undefined} aria-describedby={errorId} />
          {label}
        </Flex>
      </Text>
      <ErrorList id={errorId} errors={errors} />
    </Flex>
  );
}

/**
 * The end of a form: Cancel (a link back, so it works without JavaScript, or
 * a button of the surrounding dialog) and Submit, which is disabled and says
 * `busyLabel` while this form is being sent.
 */
export function SubmitRow({
  cancel,
  submitLabel,
  busyLabel,
  busy,
  gap = '3',
}: {
  /** `{ to, label }` for a link; a node (a `Dialog.Close` around a button) as is; none for a form without Cancel. */
  cancel?: { to: string; label: string } | React.ReactNode;
  submitLabel: string;
  busyLabel: string;
  busy: boolean;
  gap?: '2' | '3';
}) {
  return (
    <Flex gap={gap} justify="end">
      {isCancelLink(cancel) ? (
        <Button asChild variant="soft" color="gray">
          <Link to={cancel.to}>{cancel.label}</Link>
        </Button>
      ) : (
        cancel
      )}
      <Button type="submit" disabled={busy}>
        {busy ? busyLabel : submitLabel}
      </Button>
    </Flex>
  );
}

function isCancelLink(cancel: unknown): cancel is { to: string; label: string } {
  return typeof cancel === 'object' && cancel !== null && 'to' in cancel && 'label' in cancel;
}
