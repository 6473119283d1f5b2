import { getSelectProps, getTextareaProps, type FieldMetadata } from '@conform-to/react';
import { useId } from 'react';
import { ErrorList } from '~/components/forms.tsx';
import { LightButton, LightText, LightTextArea, LinkButton, Stack } from './light.tsx';

/**
 * The form fields beside `Field` and `PasswordField` (app/components/forms.tsx):
 * a select, a text area and a checkbox of a conform form, each with its
 * visible label and its errors wired to aria-invalid / aria-describedby the
 * way `Field` does, and the row of Cancel + Submit that says it is busy.
 * `errors` replaces the field's own errors when an area translates them first.
 * A form that is no conform form (the workflow editor, the upload form, the
 * KYC decisions) passes `name` (and `id` if it needs a fixed one) instead of `meta`.
 */
// Any field of any conform form; only its name, id, constraints and errors are read.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyFieldMetadata = FieldMetadata<any, any, string[]>;

type Errors = string[] | null | undefined;

/** The id of the field's error list while it has errors (for aria-describedby), else undefined. */
function errorIdOf(id: string, errors: Errors): string | undefined {
  return errors?.length ? `${id}-error` : undefined;
}

/** Where a field's name, id and errors come from: a conform field, or a plain `name` (and optional `id`). */
type FieldSource = { meta: AnyFieldMetadata; name?: undefined; id?: undefined } | { meta?: undefined; name: string; id?: string };

/** The id, name, conform props and errors of a field, whichever source it has. */
function useFieldSource(source: FieldSource, getProps: (meta: AnyFieldMetadata) => object) {
  const fallbackId = useId();
  if (source.meta) return { id: source.meta.id, props: getProps(source.meta), errors: source.meta.errors };
  const id = source.id ?? fallbackId;
  return { id, props: { id, name: source.name }, errors: undefined };
}

function Label({ htmlFor, children }: { htmlFor: string; children: React.ReactNode }) {
  return (
    <LightText as="label" htmlFor={htmlFor} size="2" weight="medium">
      {children}
    </LightText>
  );
}

/** A native select (works without JavaScript and with every screen reader); `children` are its options. */
export function SelectField({
  label,
  errors: translated,
  selectProps,
  hint,
  style,
  children,
  ...source
}: FieldSource & {
  label: string;
  errors?: Errors;
  /** Of the whole field (label, select, errors). */
  style?: React.CSSProperties;
  selectProps?: Omit<React.ComponentProps<'select'>, 'children'> & { 'data-testid'?: string };
  /** A line under the select (e.g. the chosen client's current limit). */
  hint?: React.ReactNode;
  children: React.ReactNode;
}) {
  const field = useFieldSource(source, (meta) => getSelectProps(meta));
  const errors = translated ?? field.errors;
  const errorId = errorIdOf(field.id, errors);
  return (
    <Stack direction="column" gap="1" style={style}>
      <Label htmlFor={field.id}>{label}</Label>
      <select {...field.props} {...selectProps} className="native-select" aria-invalid={errorId ? true : undefined} aria-describedby={errorId}>
        {children}
      </select>
      {hint}
      <ErrorList id={errorId} errors={errors} />
    </Stack>
  );
}

/** A multi-line text (descriptions, notes, reasons). */
export function TextAreaField({
  label,
  errors: translated,
  rows = 3,
  hint,
  textAreaProps,
  ...source
}: FieldSource & {
  label: string;
  errors?: Errors;
  rows?: number;
  /** A line under the text area that describes it while there is no error. */
  hint?: React.ReactNode;
  textAreaProps?: Omit<React.ComponentProps<typeof LightTextArea>, 'children'>;
}) {
  const field = useFieldSource(source, (meta) => getTextareaProps(meta));
  const errors = translated ?? field.errors;
  const errorId = errorIdOf(field.id, errors);
  const hintId = hint ? `${field.id}-hint` : undefined;
  return (
    <Stack direction="column" gap="1">
      <Label htmlFor={field.id}>{label}</Label>
      <LightTextArea {...field.props} rows={rows} {...textAreaProps} aria-invalid={errorId ? true : undefined} aria-describedby={errorId ?? hintId} />
      {hint ? (
        <LightText id={hintId} size="1" color="gray">
          {hint}
        </LightText>
      ) : null}
      <ErrorList id={errorId} errors={errors} />
    </Stack>
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
    <Stack direction="column" gap="1">
      <LightText as="label" size="2" htmlFor={id}>
        <Stack gap="2" align="center">
          <input
            {...inputProps}
            id={id}
            type="checkbox"
            name={name}
            value={value}
            defaultChecked={defaultChecked}
            aria-invalid={errorId ? true : undefined}
            aria-describedby={errorId}
          />
          {label}
        </Stack>
      </LightText>
      <ErrorList id={errorId} errors={errors} />
    </Stack>
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
  busyLabel = submitLabel,
  busy,
  disabled,
  gap = '3',
  justify = 'end',
  size,
  color,
  testId,
}: {
  /** `{ to, label }` for a link; a node (a `Dialog.Close` around a button) as is; none for a form without Cancel. */
  cancel?: { to: string; label: string } | React.ReactNode;
  submitLabel: string;
  /** What Submit says while busy; by default its label (it is only disabled). */
  busyLabel?: string;
  busy: boolean;
  /** Not yet sendable (the upload form until its file, name and type are set); the label stays. */
  disabled?: boolean;
  gap?: '2' | '3';
  /** 'start' for a decision's single button under its text (the KYC and invoice decisions). */
  justify?: 'start' | 'end';
  size?: '1' | '2';
  /** A destructive decision (reject) is red. */
  color?: 'red' | 'green';
  testId?: string;
}) {
  return (
    <Stack gap={gap} justify={justify}>
      {isCancelLink(cancel) ? (
        <LinkButton to={cancel.to} variant="soft" color="gray">
          {cancel.label}
        </LinkButton>
      ) : (
        cancel
      )}
      <LightButton disabled={busy || disabled} size={size} color={color} data-testid={testId}>
        {busy ? busyLabel : submitLabel}
      </LightButton>
    </Stack>
  );
}

/**
 * A select and its small submit button in one row, for a one-field form
 * inside a card or a table row (assign a task, assign a bank entry to an
 * invoice). There is no room for a label above it: `label` names the select
 * (aria-label) and the row needs no JavaScript.
 */
export function InlineSelect({
  label,
  name,
  defaultValue,
  required,
  submitLabel,
  gap = '1',
  children,
}: {
  label: string;
  name: string;
  defaultValue?: string;
  required?: boolean;
  submitLabel: string;
  gap?: '1' | '2';
  children: React.ReactNode;
}) {
  return (
    <Stack gap={gap} align="center">
      {/* The key resets the select when the stored value changes after a post (the same form stays mounted). */}
      <select name={name} defaultValue={defaultValue} key={defaultValue} required={required} aria-label={label} className="native-select">
        {children}
      </select>
      <LightButton size="1" variant="soft">
        {submitLabel}
      </LightButton>
    </Stack>
  );
}

function isCancelLink(cancel: unknown): cancel is { to: string; label: string } {
  return typeof cancel === 'object' && cancel !== null && 'to' in cancel && 'label' in cancel;
}

/**
 * A select's options over a list: fixed values (an enum, `value` is the item
 * itself) or records (`value` picks the id); `label` gives each option's text,
 * the item itself when absent. The placeholder option stays the page's own.
 */
export function Options<T>({ items, value = String, label = String }: { items: readonly T[]; value?: (item: T) => string; label?: (item: T) => string }) {
  return (
    <>
      {items.map((item) => (
        <option key={value(item)} value={value(item)}>
          {label(item)}
        </option>
      ))}
    </>
  );
}
