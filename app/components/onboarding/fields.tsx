import { Callout, Flex, Text, TextField } from '@radix-ui/themes';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { KYC_ALLOWED_LABEL, KYC_MAX_FILE_MB } from '~/onboarding/kyc.ts';
import { DRAFT_UPLOAD_CAP_MB } from '~/onboarding/limits.ts';
import { refusalText } from '~/utils/refusals.ts';

/**
 * The wizard's form pieces. Its messages are i18n keys (docs/domain-model.md#validation) and the
 * upload texts carry their limits, so they are translated here; a server
 * refusal is a code like any other (docs/decisions/013-error-codes.md).
 */
export function useWizardMessage() {
  const { t, i18n } = useTranslation();
  return (message: string) =>
    message.startsWith('onboarding.')
      ? t(message, { types: KYC_ALLOWED_LABEL, max: KYC_MAX_FILE_MB, cap: DRAFT_UPLOAD_CAP_MB })
      : refusalText(t, (key) => i18n.exists(key), message);
}

export function WizardErrors({ id, errors }: { id?: string; errors?: string[] | null }) {
  const message = useWizardMessage();
  if (!errors?.length) return null;
  return (
    // The alert role sits on a wrapper: on the <ul> itself it would replace the list role of its items.
    <div id={id} role="alert">
      <ul className="error-list">
        {errors.map((error) => (
          <li key={error}>
            <Text size="1" color="red">
              {message(error)}
            </Text>
          </li>
        ))}
      </ul>
    </div>
  );
}

export function WizardFormErrors({ errors }: { errors?: string[] | null }) {
  const message = useWizardMessage();
  if (!errors?.length) return null;
  return (
    <Callout.Root color="red" role="alert" data-testid="wizard-form-error">
      <Callout.Text>{errors.map(message).join(' ')}</Callout.Text>
    </Callout.Root>
  );
}

type InputProps = Omit<React.ComponentProps<typeof TextField.Root>, 'children'>;

export function WizardField({ label, hint, inputProps, errors }: { label: string; hint?: string; inputProps: InputProps; errors?: string[] | null }) {
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
      <WizardErrors id={errorId} errors={errors} />
    </Flex>
  );
}
