import type { LoaderFunctionArgs } from '@remix-run/node';
import { requirePermission } from '~/auth/permissions.server.ts';
import { listUnmatchedEntries } from '~/banking/camt053.server.ts';
import { apiJson, listParams, methodNotAllowed } from '~/utils/api.server.ts';

/** GET /api/bank-statements/unmatched: statement entries no invoice matched, newest first; X-Total-Count. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requirePermission(request, 'read:all', { api: true });
  const { limit, offset } = listParams(request);
  const { items, total } = await listUnmatchedEntries({ limit, offset });
  return apiJson(items, { headers: { 'X-Total-Count': String(total) } });
}

export const action = () => methodNotAllowed(['GET']);
