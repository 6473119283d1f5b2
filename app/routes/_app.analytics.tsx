import type { LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { analyticsFor } from '~/analytics/analytics.server.ts';
import { ageingPage } from '~/analytics/ageing.server.ts';
import { analyticsPeriodOf, analyticsTabOf } from '~/analytics/periods.ts';
import { requirePermission } from '~/auth/permissions.server.ts';
import { AnalyticsPage } from '~/components/analytics/analytics-page.tsx';

/**
 * /analytics on real figures (docs/screens.md): ?period= (7d, 30d default, 90d, 1y) and ?tab= live in the URL, so it works without JavaScript.
 * The ageing tab reads its own ?asOf=&by=&party=&bucket=&page=&ipage= (app/analytics/ageing.server.ts).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requirePermission(request, 'read:all');
  const url = new URL(request.url);
  const tab = analyticsTabOf(url.searchParams.get('tab'));
  const [analytics, ageing] = await Promise.all([
    analyticsFor({ period: analyticsPeriodOf(url.searchParams.get('period')), now: new Date() }),
    tab === 'ageing' ? ageingPage(url) : null,
  ]);
  return json({ analytics, tab, ageing }, { headers: { 'Cache-Control': 'no-store' } });
}

export default function AnalyticsRoute() {
  return <AnalyticsPage data={useLoaderData<typeof loader>()} />;
}
