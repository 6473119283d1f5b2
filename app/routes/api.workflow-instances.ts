import type { LoaderFunctionArgs } from '@remix-run/node';
import { requirePermission } from '~/auth/permissions.server.ts';
import { apiJson, methodNotAllowed, listParams } from '~/utils/api.server.ts';
import { listInstances } from '~/workflows/instances.server.ts';
import { WORKFLOW_STATUSES } from '~/workflows/schemas.ts';

/** GET /api/workflow-instances: newest first with workflow name/type and progress; ?status, ?limit, ?offset; X-Total-Count. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requirePermission(request, 'read:all', { api: true });
  const { limit, offset } = listParams(request);
  const status = new URL(request.url).searchParams.get('status');
  // An unknown status matches nothing rather than being ignored silently.
  if (status && !(WORKFLOW_STATUSES as readonly string[]).includes(status)) return apiJson([], { headers: { 'X-Total-Count': '0' } });
  const { items, total } = await listInstances({ status, limit, offset });
  return apiJson(items, { headers: { 'X-Total-Count': String(total) } });
}

export const action = () => methodNotAllowed(['GET']);
