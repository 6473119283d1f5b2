import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { clientIp } from '~/auth/login.server.ts';
import { requirePermission } from '~/auth/permissions.server.ts';
import { createClient, listClients, type ClientDto } from '~/clients/clients.server.ts';
import { handleCreate, listPageParams, pageCount } from '~/clients/party-page.server.ts';
import { CLIENT_FIELDS, clientCreateSchema } from '~/clients/schemas.ts';
import { ClientStatusBadge, CreditUsageBar } from '~/components/clients/display.tsx';
import { PartyCard, PartyListPage } from '~/components/clients/party-list.tsx';
import { LightText, Stack } from '~/components/kit/light.tsx';
import { formatEur } from '~/utils/format.ts';
import { readFormData } from '~/utils/form-data.server.ts';

/** /clients (docs/screens.md): newest first, 24 a page, ?q (name, OIB prefix, email), ?page, ?new=1 (the creation form without JavaScript). */
export async function loader({ request }: LoaderFunctionArgs) {
  await requirePermission(request, 'read:all');
  const { q, page, offset, limit, showNew } = listPageParams(request);
  const { clients, total } = await listClients({ q, offset, limit });
  return json({ clients, total, q, page, pages: pageCount(total), showNew });
}

/** The creation dialog (docs/domain-model.md#validation) and its no-JavaScript panel. */
export async function action({ request, context }: ActionFunctionArgs) {
  const actor = await requirePermission(request, 'create:client');
  const formData = await readFormData(request);
  return handleCreate(formData, {
    schema: clientCreateSchema,
    create: (input) => createClient({ actor, input, ip: clientIp(context) }),
    listPath: '/clients',
    toast: { title: 'clients.toast.successTitle', description: 'clients.toast.created' },
  });
}

export default function ClientsPage() {
  const { clients, ...list } = useLoaderData<typeof loader>();
  return (
    <PartyListPage area="clients" schema={clientCreateSchema} names={CLIENT_FIELDS} list={list}>
      {clients.map((client) => (
        <ClientCard key={client.id} client={client} />
      ))}
    </PartyListPage>
  );
}

/** Card (docs/screens.md): name, OIB, city, status, limit and used credit (0 decimals), usage bar, risk x/100. */
function ClientCard({ client }: { client: Pick<ClientDto, 'id' | 'companyName' | 'oib' | 'city' | 'status' | 'creditLimit' | 'usedCredit' | 'riskScore'> }) {
  const { t } = useTranslation();
  return (
    <PartyCard
      testId="client-card"
      to={`/clients/${client.id}`}
      name={client.companyName}
      oib={client.oib}
      city={client.city}
      riskScore={client.riskScore}
      badge={<ClientStatusBadge status={client.status} />}
    >
      <Stack justify="between" gap="3">
        <Stack direction="column">
          <LightText size="1" color="gray">
            {t('clients.card.creditLimit')}
          </LightText>
          <LightText size="2" weight="medium" data-testid="credit-limit">
            {client.creditLimit === null ? t('clients.card.noLimit') : formatEur(client.creditLimit, { decimals: 0 })}
          </LightText>
        </Stack>
        <Stack direction="column" align="end">
          <LightText size="1" color="gray">
            {t('clients.card.usedCredit')}
          </LightText>
          <LightText size="2" weight="medium" data-testid="used-credit">
            {formatEur(client.usedCredit, { decimals: 0 })}
          </LightText>
        </Stack>
      </Stack>
      <CreditUsageBar used={client.usedCredit} limit={client.creditLimit} />
    </PartyCard>
  );
}
