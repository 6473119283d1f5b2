import { Badge, Button, Card, Flex, Heading, Text } from '@radix-ui/themes';
import { Link, useNavigation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import type { IntegrationDto } from '~/integrations/integrations.server.ts';
import { formatDateTime } from '~/utils/format.ts';
import { IntegrationStatusBadge } from './display.tsx';
import { IntentForm } from '~/components/kit/intent-form.tsx';

type CardIntegration = Pick<IntegrationDto, 'type' | 'name' | 'description' | 'status' | 'mode' | 'isEnabled' | 'lastCheck' | 'lastSync' | 'errorCount' | 'lastError'>;

/**
 * One integration (docs/screens.md): status, mode, last check, errors, and the
 * buttons test (a POST to the page action; admins), configure, logs and
 * set-up (the integration's own page, on that tab).
 */
export function IntegrationCard({ integration, canManage, redirectTo }: { integration: CardIntegration; canManage: boolean; redirectTo: string }) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const testing = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'test' && navigation.formData.get('type') === integration.type;
  const page = `/integrations/${integration.type}`;
  return (
    <Card size="2" data-testid={`integration-card-${integration.type}`}>
      <Flex direction="column" gap="3">
        <Flex justify="between" align="start" gap="2">
          <Heading as="h3" size="3">
            <Link to={page}>{integration.name}</Link>
          </Heading>
          <Flex gap="1">
            <Badge variant="outline" color={integration.mode === 'live' ? 'blue' : 'gray'}>
              {t(`integrations.mode.${integration.mode}`)}
            </Badge>
            <IntegrationStatusBadge status={integration.status} />
          </Flex>
        </Flex>
        {integration.description ? (
          <Text size="2" color="gray">
            {integration.description}
          </Text>
        ) : null}
        <Flex direction="column" gap="1">
          <Text size="1" color="gray">
            {t('integrations.card.lastCheck')}: {integration.lastCheck ? formatDateTime(integration.lastCheck) : t('integrations.card.never')}
          </Text>
          <Text size="1" color="gray">
            {t('integrations.card.lastSync')}: {integration.lastSync ? formatDateTime(integration.lastSync) : t('integrations.card.never')}
          </Text>
          <Text size="1" color={integration.errorCount > 0 ? 'red' : 'gray'} data-testid="error-count">
            {t('integrations.card.errors', { count: integration.errorCount })}
          </Text>
          {integration.lastError && integration.errorCount > 0 ? (
            <Text size="1" color="red">
              {t('integrations.card.lastError')}: {integration.lastError}
            </Text>
          ) : null}
          {!integration.isEnabled ? (
            <Text size="1" color="amber">
              {t('integrations.card.disabled')}
            </Text>
          ) : null}
        </Flex>
        <Flex gap="2" wrap="wrap">
          {canManage ? (
            <IntentForm intent="test" values={{ type: integration.type, redirectTo }}>
              <Button type="submit" size="1" disabled={testing} data-testid={`test-${integration.type}`}>
                {testing ? t('integrations.actions.testing') : t('integrations.actions.test')}
              </Button>
            </IntentForm>
          ) : null}
          {canManage ? (
            <Button asChild size="1" variant="soft">
              <Link to={`${page}?tab=configure`}>{t('integrations.actions.configure')}</Link>
            </Button>
          ) : null}
          <Button asChild size="1" variant="soft">
            <Link to={`${page}?tab=logs`}>{t('integrations.actions.logs')}</Link>
          </Button>
          <Button asChild size="1" variant="soft" color="gray">
            <Link to={`${page}?tab=setup`}>{t('integrations.actions.setup')}</Link>
          </Button>
        </Flex>
      </Flex>
    </Card>
  );
}
