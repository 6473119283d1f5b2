import type { LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { analyticsFor } from '~/analytics/analytics.server.ts';
import { analyticsPeriodOf, analyticsTabOf } from '~/analytics/periods.ts';
import { requirePermission } from '~/auth/permissions.server.ts';
import { AnalyticsPage } from '~/components/analytics/analytics-page.tsx';

/** /analytics on real figures (docs/screens.md): ?period= (7d, 30d default, 90d, 1y) and ?tab= live in the URL, so it works without JavaScript. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requirePermission(request, 'read:all');
  const url = new URL(request.url);
  const analytics = await analyticsFor({ period: analyticsPeriodOf(url.searchParams.get('period')), now: new Date() });
  return json({ analytics, tab: analyticsTabOf(url.searchParams.get('tab')) }, { headers: { 'Cache-Control': 'no-store' } });
}

export default function AnalyticsRoute() {
  return <AnalyticsPage data={useLoaderData<typeof loader>()} />;
}
