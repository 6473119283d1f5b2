import type { LoaderFunctionArgs } from '@remix-run/node';
import { requirePermission } from '~/auth/permissions.server.ts';
import { apiJson, methodNotAllowed, requireUuidParam } from '~/utils/api.server.ts';
import { getInstanceDetail } from '~/workflows/instances.server.ts';

/** GET /api/workflow-instances/{id}: the instance with its step history and tasks. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requirePermission(request, 'read:all', { api: true });
  return apiJson(await getInstanceDetail(requireUuidParam(params.id)));
}

export const action = () => methodNotAllowed(['GET']);
