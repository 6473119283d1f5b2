import { getInputProps, type FieldMetadata } from '@conform-to/react';
import { Callout, Flex, Text, TextField } from '@radix-ui/themes';
import { useId } from 'react';
import { useRefusalText } from './refusal-text.ts';

/**
 * The small form kit (STYLE 5): a labelled input whose errors are wired to
 * aria-invalid / aria-describedby once, for every form of the product.
 */
export function ErrorList({ id, errors }: { id?: string; errors?: string[] | null }) {
  const text = useRefusalText();
  if (!errors?.length) return null;
  return (
    // The alert role sits on a wrapper: on the <ul> itself it would replace the list role of its items.
    <div id={id} role="alert">
      <ul className="error-list">
        {errors.map((error) => (
          <li key={error}>
            <Text size="1" color="red">
              {text(error)}
            </Text>
          </li>
        ))}
      </ul>
    </div>
  );
}

type InputProps = Omit<React.ComponentProps<typeof TextField.Root>, 'children'>;

export function Field({ label, inputProps, errors }: { label: string; inputProps: InputProps; errors?: string[] | null }) {
  const fallbackId = useId();
  const id = inputProps.id ?? fallbackId;
  const errorId = errors?.length ? `${id}-error` : undefined;
  return (
    <Flex direction="column" gap="1">
      <Text as="label" htmlFor={id} size="2" weight="medium">
        {label}
      </Text>
      <TextField.Root {...inputProps} id={id} aria-invalid={errorId ? true : undefined} aria-describedby={errorId} />
      <ErrorList id={errorId} errors={errors} />
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
export function FormErrors({ errors }: { errors?: string[] | null }) {
  const text = useRefusalText();
  if (!errors?.length) return null;
  return (
    <Callout.Root color="red" role="alert">
      <Callout.Text>{errors.map(text).join(' ')}</Callout.Text>
    </Callout.Root>
  );
}
