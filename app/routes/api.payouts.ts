import type { LoaderFunctionArgs } from '@remix-run/node';
import { requirePermission } from '~/auth/permissions.server.ts';
import { listPayouts } from '~/payouts/payouts.server.ts';
import { apiJson, listParams, methodNotAllowed } from '~/utils/api.server.ts';

/** GET /api/payouts: advances and reserve releases, newest first, ?status, ?limit, ?offset; X-Total-Count. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requirePermission(request, 'read:all', { api: true });
  const { limit, offset } = listParams(request);
  const status = new URL(request.url).searchParams.get('status') || null;
  const { items, total } = await listPayouts({ status, limit, offset });
  return apiJson(items, { headers: { 'X-Total-Count': String(total) } });
}

export const action = () => methodNotAllowed(['GET']);
