import { Card, Flex, Text } from '@radix-ui/themes';
import { useTranslation } from 'react-i18next';
import { ErrorList, Field, FormErrors } from '~/components/forms.tsx';
import { KYC_ALLOWED_LABEL, KYC_MAX_FILE_MB, type KycDocumentType } from '~/onboarding/kyc.ts';
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

function WizardErrors({ id, errors }: { id?: string; errors?: string[] | null }) {
  return <ErrorList id={id} errors={errors} text={useWizardMessage()} />;
}

export function WizardFormErrors({ errors }: { errors?: string[] | null }) {
  return <FormErrors errors={errors} text={useWizardMessage()} testId="wizard-form-error" />;
}

type InputProps = React.ComponentProps<typeof Field>['inputProps'];

export function WizardField({ label, hint, inputProps, errors }: { label: string; hint?: string; inputProps: InputProps; errors?: string[] | null }) {
  return <Field label={label} hint={hint} inputProps={inputProps} errors={errors} text={useWizardMessage()} />;
}

/**
 * One KYC document's card, in the wizard and on the emailed request page: its
 * label (with `status` beside it), what it is, the file input (`children`,
 * named `file-<type>`) and its errors.
 */
export function KycFileCard({ kycType, status, errors, children }: { kycType: KycDocumentType; status?: React.ReactNode; errors?: string[] | null; children: React.ReactNode }) {
  const { t } = useTranslation();
  const inputId = `file-${kycType}`;
  return (
    <Card data-testid={`kyc-${kycType}`}>
      <Flex direction="column" gap="2">
        <Flex justify="between" align="center" gap="2">
          <Text as="label" htmlFor={inputId} weight="bold">
            {t(`onboarding.kyc.types.${kycType}.label`)}
          </Text>
          {status}
        </Flex>
        <Text size="2" color="gray">
          {t(`onboarding.kyc.types.${kycType}.description`)}
        </Text>
        {children}
        <WizardErrors id={`${inputId}-error`} errors={errors} />
      </Flex>
    </Card>
  );
}
