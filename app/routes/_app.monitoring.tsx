import type { LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { requirePermission } from '~/auth/permissions.server.ts';
import { MonitoringPage } from '~/components/monitoring/monitoring-page.tsx';
import { loadMonitoring } from '~/monitoring/page.server.ts';

/** /monitoring (docs/screens.md): real health (database, worker, queues, integrations) and the activity log, refreshed every 30 s. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requirePermission(request, 'read:all');
  return json(await loadMonitoring(new URL(request.url)), { headers: { 'Cache-Control': 'no-store' } });
}

export default function Monitoring() {
  return <MonitoringPage data={useLoaderData<typeof loader>()} />;
}
