import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node';
import { useLoaderData, useLocation } from '@remix-run/react';
import { clientIp } from '~/auth/login.server.ts';
import { requirePermission } from '~/auth/permissions.server.ts';
import { handleCreate, listPageParams, pageCount } from '~/clients/party-page.server.ts';
import { CustomerStatusBadge } from '~/components/clients/display.tsx';
import { PartyCard, PartyListPage } from '~/components/clients/party-list.tsx';
import { FinaCheckButton } from '~/components/integrations/fina-check-button.tsx';
import { createCustomer, listCustomers, type CustomerDto } from '~/customers/customers.server.ts';
import { CUSTOMER_FIELDS, customerCreateSchema } from '~/customers/schemas.ts';
import { readFormData } from '~/utils/form-data.server.ts';

/** /customers (docs/screens.md): newest first, 24 a page, ?q (name, OIB prefix, email), ?page, ?new=1 (the creation form without JavaScript). */
export async function loader({ request }: LoaderFunctionArgs) {
  await requirePermission(request, 'read:all');
  const { q, page, offset, limit, showNew } = listPageParams(request);
  const { customers, total } = await listCustomers({ q, offset, limit });
  return json({ customers, total, q, page, pages: pageCount(total), showNew });
}

/** The creation dialog (docs/domain-model.md#validation) and its no-JavaScript panel. */
export async function action({ request, context }: ActionFunctionArgs) {
  const actor = await requirePermission(request, 'create:customer');
  const formData = await readFormData(request);
  return handleCreate(formData, {
    schema: customerCreateSchema,
    create: (input) => createCustomer({ actor, input, ip: clientIp(context) }),
    listPath: '/customers',
    toast: { title: 'clients.toast.successTitle', description: 'customers.toast.created' },
  });
}

export default function CustomersPage() {
  const { customers, ...list } = useLoaderData<typeof loader>();
  return (
    <PartyListPage area="customers" schema={customerCreateSchema} names={CUSTOMER_FIELDS} list={list}>
      {customers.map((customer) => (
        <CustomerCard key={customer.id} customer={customer} />
      ))}
    </PartyListPage>
  );
}

/**
 * Card (docs/screens.md): 'Blokiran'/'Aktivan', risk x/100 and 'FINA provjera', which
 * runs the FINA account check (app/fina/checks.server.ts) and comes back here
 * with a toast.
 */
function CustomerCard({ customer }: { customer: Pick<CustomerDto, 'id' | 'companyName' | 'oib' | 'city' | 'accountBlocked' | 'riskScore'> }) {
  const location = useLocation();
  const redirectTo = `${location.pathname}${location.search}`;
  return (
    <PartyCard
      testId="customer-card"
      to={`/customers/${customer.id}`}
      name={customer.companyName}
      oib={customer.oib}
      city={customer.city}
      riskScore={customer.riskScore}
      badge={<CustomerStatusBadge accountBlocked={customer.accountBlocked} />}
      after={<FinaCheckButton customerId={customer.id} redirectTo={redirectTo} />}
    />
  );
}
