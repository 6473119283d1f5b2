import { Button, Callout, Card, Flex, Heading, Text, TextArea, TextField } from '@radix-ui/themes';
import { Form, useNavigation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import type { IntegrationDto } from '~/integrations/integrations.server.ts';
import { INTEGRATION_MODES } from '~/integrations/types.ts';
import { CheckboxField } from '~/components/kit/fields.tsx';

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
  const navigation = useNavigation();
  const saving = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'configure';
  const fieldError = (name: string) => errors?.errors?.[name]?.[0];
  return (
    <Card size="3">
      <Form method="post" aria-label={t('integrations.configure.title')}>
        <input type="hidden" name="intent" value="configure" />
        <Flex direction="column" gap="3">
          <Heading as="h3" size="4">
            {t('integrations.configure.title')}
          </Heading>
          {errors?.message ? (
            <Callout.Root color="red" role="alert">
              <Callout.Text>{errors.message}</Callout.Text>
            </Callout.Root>
          ) : null}
          <label>
            <Text as="div" size="2" weight="medium">
              {t('integrations.configure.endpoint')}
            </Text>
            <TextField.Root name="endpoint" type="url" defaultValue={integration.endpoint ?? ''} placeholder="https://api.example.hr/v1" />
            {fieldError('endpoint') ? (
              <Text size="1" color="red">
                {fieldError('endpoint')}
              </Text>
            ) : null}
          </label>
          <label>
            <Text as="div" size="2" weight="medium">
              {t('integrations.configure.mode')}
            </Text>
            <select name="mode" defaultValue={integration.mode} className="native-select">
              {INTEGRATION_MODES.map((mode) => (
                <option key={mode} value={mode}>
                  {t(`integrations.mode.${mode}`)}
                </option>
              ))}
            </select>
          </label>
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
          <label>
            <Text as="div" size="2" weight="medium">
              {t('integrations.configure.credentials')}
            </Text>
            <TextArea name="credentials" rows={4} placeholder={'apiKey=...\nusername=...\npassword=...'} autoComplete="off" spellCheck={false} />
            <Text size="1" color="gray">
              {t('integrations.configure.credentialsHelp')}
            </Text>
            {fieldError('credentials') ? (
              <Text as="div" size="1" color="red">
                {fieldError('credentials')}
              </Text>
            ) : null}
          </label>
          <CheckboxField label={t('integrations.configure.clearCredentials')} name="clearCredentials" errors={errors?.errors?.clearCredentials} />
          <Flex>
            <Button type="submit" disabled={saving}>
              {saving ? t('integrations.configure.saving') : t('integrations.configure.save')}
            </Button>
          </Flex>
        </Flex>
      </Form>
    </Card>
  );
}
