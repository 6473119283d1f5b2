import type { ActionFunctionArgs } from '@remix-run/node';
import { requirePermission } from '~/auth/permissions.server.ts';
import { apiJson, methodNotAllowed, parseJsonBody, requireUuidParam } from '~/utils/api.server.ts';
import { testDefinition } from '~/workflows/definitions.server.ts';
import { testSchema } from '~/workflows/schemas.ts';

/**
 * POST /api/workflows/{id}/test {entityId}: the dry-run report ('edit:workflow').
 * (The file name escapes "test" so the route is not taken for a test file.)
 */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['POST']);
  const actor = await requirePermission(request, 'edit:workflow', { api: true });
  const definitionId = requireUuidParam(params.id);
  const { entityId } = await parseJsonBody(request, testSchema);
  return apiJson(await testDefinition({ actor, definitionId, entityId }));
}

export function loader() {
  return methodNotAllowed(['POST']);
}
