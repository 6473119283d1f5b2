import { getInputProps, type FieldMetadata } from '@conform-to/react';
import { Flex, Text, TextField } from '@radix-ui/themes';
import { useId } from 'react';
import { useRefusalText } from './refusal-text.ts';
import { AlertCallout } from '~/components/kit/callouts.tsx';
import { LightText } from '~/components/kit/light.tsx';

/**
 * The small form kit (STYLE 5): a labelled input whose errors are wired to
 * aria-invalid / aria-describedby once, for every form of the product.
 */
export function ErrorList({ id, errors, text }: { id?: string; errors?: string[] | null; text?: (message: string) => string }) {
  const refusal = useRefusalText();
  const show = text ?? refusal;
  if (!errors?.length) return null;
  return (
    // The alert role sits on a wrapper: on the <ul> itself it would replace the list role of its items.
    <div id={id} role="alert">
      <ul className="error-list">
        {errors.map((error) => (
          <li key={error}>
            <LightText size="1" color="red">
              {show(error)}
            </LightText>
          </li>
        ))}
      </ul>
    </div>
  );
}

type InputProps = Omit<React.ComponentProps<typeof TextField.Root>, 'children'>;

/**
 * A labelled text input; `hint` is a grey line under it that describes it,
 * `text` translates its errors where an area has its own messages (the wizard).
 */
export function Field({
  label,
  hint,
  inputProps,
  errors,
  text,
}: {
  label: string;
  hint?: string;
  inputProps: InputProps;
  errors?: string[] | null;
  text?: (message: string) => string;
}) {
  const fallbackId = useId();
  const id = inputProps.id ?? fallbackId;
  const errorId = errors?.length ? `${id}-error` : undefined;
  const hintId = hint ? `${id}-hint` : undefined;
  return (
    <Flex direction="column" gap="1">
      <Text as="label" htmlFor={id} size="2" weight="medium">
        {label}
      </Text>
      <TextField.Root {...inputProps} id={id} aria-invalid={errorId ? true : undefined} aria-describedby={[hintId, errorId].filter(Boolean).join(' ') || undefined} />
      {hint ? (
        <Text id={hintId} size="1" color="gray">
          {hint}
        </Text>
      ) : null}
      <ErrorList id={errorId} errors={errors} text={text} />
    </Flex>
  );
}

/** A password input of a conform form; passwords are never echoed back by the server. */
export function PasswordField({
  label,
  meta,
  autoComplete,
}: {
  label: string;
  // Any field of any conform form; only its name, id, constraints and errors are read.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  meta: FieldMetadata<unknown, any, string[]>;
  autoComplete: 'current-password' | 'new-password';
}) {
  return <Field label={label} inputProps={{ ...getInputProps(meta, { type: 'password' }), autoComplete }} errors={meta.errors} />;
}

/** Errors of the whole form (not of one field), e.g. a refusal the server explained in one sentence. */
export function FormErrors({ errors, text, testId }: { errors?: string[] | null; text?: (message: string) => string; testId?: string }) {
  const refusal = useRefusalText();
  const show = text ?? refusal;
  if (!errors?.length) return null;
  return <AlertCallout testId={testId}>{errors.map(show).join(' ')}</AlertCallout>;
}
