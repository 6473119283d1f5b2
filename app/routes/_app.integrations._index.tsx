import { Card, Flex, Grid, Heading, Text } from '@radix-ui/themes';
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { TabBar } from '~/components/kit/tab-bar.tsx';
import { clientIp } from '~/auth/login.server.ts';
import { can, requirePermission } from '~/auth/permissions.server.ts';
import { IntegrationCard } from '~/components/integrations/integration-card.tsx';
import { useRefusalText } from '~/components/refusal-text.ts';
import { integrationCounts, listIntegrations, type IntegrationGroup } from '~/integrations/integrations.server.ts';
import { handleIntegrationIntent } from '~/integrations/page.server.ts';
import { readListUrl, tabSchema } from '~/utils/list-url.ts';
import { AlertCallout } from '~/components/kit/callouts.tsx';

const TABS = ['overview', 'croatian', 'general'] as const;
type Tab = (typeof TABS)[number];
const TAB = tabSchema(TABS, 'overview');
const GROUP: Record<Tab, IntegrationGroup> = { overview: 'all', croatian: 'croatian', general: 'general' };

/** /integrations (docs/screens.md): counters (active, error, inactive), tabs overview / Croatian / general in ?tab, one card per integration. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requirePermission(request, 'read:all');
  const tab: Tab = readListUrl(request).read(TAB);
  const integrations = await listIntegrations({ group: GROUP[tab] });
  const counts = await integrationCounts();
  return json({ tab, integrations, counts, canManage: can(user, 'manage:integrations') });
}

export async function action({ request, context }: ActionFunctionArgs) {
  return handleIntegrationIntent(request, { ip: clientIp(context), fallback: '/integrations' });
}

export default function IntegrationsPage() {
  const { tab, integrations, counts, canManage } = useLoaderData<typeof loader>();
  const actionData = useActionData<{ message?: string }>();
  const { t } = useTranslation();
  const showRefusal = useRefusalText();
  const href = (value: Tab) => (value === 'overview' ? '/integrations' : `/integrations?tab=${value}`);
  return (
    <Flex direction="column" gap="4">
      <Heading as="h2" size="6">
        {t('integrations.title')}
      </Heading>
      <Text color="gray">{t('integrations.subtitle')}</Text>
      <Grid columns={{ initial: '1', sm: '3' }} gap="4">
        {(['active', 'error', 'inactive'] as const).map((key) => (
          <Card key={key} data-testid={`counter-${key}`}>
            <Text as="div" size="2" color="gray">
              {t(`integrations.counters.${key}`)}
            </Text>
            <Text as="div" size="6" weight="bold" color={key === 'error' && counts.error > 0 ? 'red' : undefined}>
              {counts[key]}
            </Text>
          </Card>
        ))}
      </Grid>
      {actionData?.message ? <AlertCallout>{showRefusal(actionData.message)}</AlertCallout> : null}
      <TabBar label={t('integrations.tabsLabel')} tabs={TABS} active={tab} hrefFor={href} labelFor={(value) => t(`integrations.tabs.${value}`)} />
      {integrations.length === 0 ? (
        <Text color="gray">{t('integrations.empty')}</Text>
      ) : (
        <Grid columns={{ initial: '1', md: '2', lg: '3' }} gap="4">
          {integrations.map((integration) => (
            <IntegrationCard key={integration.type} integration={integration} canManage={canManage} redirectTo={href(tab)} />
          ))}
        </Grid>
      )}
    </Flex>
  );
}
