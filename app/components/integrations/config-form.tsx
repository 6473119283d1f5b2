import { Card, Flex, Heading, Text } from '@radix-ui/themes';
import { useNavigation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import type { IntegrationDto } from '~/integrations/integrations.server.ts';
import { INTEGRATION_MODES } from '~/integrations/types.ts';
import { Field } from '~/components/forms.tsx';
import { useRefusalText } from '~/components/refusal-text.ts';
import { CheckboxField, Options, SelectField, SubmitRow, TextAreaField } from '~/components/kit/fields.tsx';
import { IntentForm } from '~/components/kit/intent-form.tsx';
import { AlertCallout } from '~/components/kit/callouts.tsx';

export interface ConfigFormErrors {
  message?: string;
  errors?: Record<string, string[]>;
}

/**
 * Configure (admin): endpoint, credentials as key=value lines (stored
 * encrypted; only the keys and a masked hint are ever shown back), mode and
 * enabled. A plain POST form, so it works without JavaScript.
 */
export function IntegrationConfigForm({ integration, errors }: { integration: IntegrationDto; errors?: ConfigFormErrors | null }) {
  const { t } = useTranslation();
  const showRefusal = useRefusalText();
  const navigation = useNavigation();
  const saving = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'configure';
  const fieldErrors = (name: string) => errors?.errors?.[name];
  return (
    <Card size="3">
      <IntentForm intent="configure" aria-label={t('integrations.configure.title')}>
        <Flex direction="column" gap="3">
          <Heading as="h3" size="4">
            {t('integrations.configure.title')}
          </Heading>
          {errors?.message ? <AlertCallout>{showRefusal(errors.message)}</AlertCallout> : null}
          <Field
            label={t('integrations.configure.endpoint')}
            inputProps={{ name: 'endpoint', type: 'url', defaultValue: integration.endpoint ?? '', placeholder: 'https://api.example.hr/v1' }}
            errors={fieldErrors('endpoint')}
          />
          <SelectField label={t('integrations.configure.mode')} name="mode" errors={fieldErrors('mode')} selectProps={{ defaultValue: integration.mode }}>
            <Options items={INTEGRATION_MODES} label={(mode) => t(`integrations.mode.${mode}`)} />
          </SelectField>
          <CheckboxField label={t('integrations.configure.enabled')} name="isEnabled" defaultChecked={integration.isEnabled} errors={errors?.errors?.isEnabled} />
          <div>
            <Text as="div" size="2" weight="medium">
              {t('integrations.configure.storedCredentials')}
            </Text>
            {integration.credentials.length === 0 ? (
              <Text size="2" color="gray">
                {t('integrations.configure.noCredentials')}
              </Text>
            ) : (
              <ul data-testid="stored-credentials">
                {integration.credentials.map((credential) => (
                  <li key={credential.key}>
                    <Text size="2">
                      <code>{credential.key}</code> = {credential.hint}
                    </Text>
                  </li>
                ))}
              </ul>
            )}
          </div>
          <TextAreaField
            label={t('integrations.configure.credentials')}
            name="credentials"
            rows={4}
            hint={t('integrations.configure.credentialsHelp')}
            errors={fieldErrors('credentials')}
            textAreaProps={{ placeholder: 'apiKey=...\nusername=...\npassword=...', autoComplete: 'off', spellCheck: false }}
          />
          <CheckboxField label={t('integrations.configure.clearCredentials')} name="clearCredentials" errors={errors?.errors?.clearCredentials} />
          <SubmitRow submitLabel={t('integrations.configure.save')} busyLabel={t('integrations.configure.saving')} busy={saving} justify="start" />
        </Flex>
      </IntentForm>
    </Card>
  );
}
