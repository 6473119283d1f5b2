import { apiAction } from '~/utils/api-route.server.ts';
import { apiJson, methodNotAllowed, parseJsonBody, requireUuidParam } from '~/utils/api.server.ts';
import { testDefinition } from '~/workflows/definitions.server.ts';
import { testSchema } from '~/workflows/schemas.ts';

/**
 * POST /api/workflows/{id}/test {entityId}: the dry-run report ('edit:workflow').
 * (The file name escapes "test" so the route is not taken for a test file.)
 */
export const action = apiAction({ method: 'POST', allow: ['POST'], permission: 'edit:workflow' }, async ({ actor, request, params }) => {
  const definitionId = requireUuidParam(params.id);
  const { entityId } = await parseJsonBody(request, testSchema);
  return apiJson(await testDefinition({ actor, definitionId, entityId }));
});

export const loader = () => methodNotAllowed(['POST']);
