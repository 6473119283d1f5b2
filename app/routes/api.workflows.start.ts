import { apiJson, methodNotAllowed, parseJsonBody } from '~/utils/api.server.ts';
import { startWorkflowInstance } from '~/workflows/instances.server.ts';
import { startSchema } from '~/workflows/schemas.ts';
import { apiAction } from '~/utils/api-route.server.ts';

/**
 * POST /api/workflows/start {workflowType, entityId, entityType} → 201 with the
 * instance ('start:workflow': managers run workflows). 404 on entityId when no
 * such entity exists or the workflow does not work on its type.
 */
export const action = apiAction({ method: 'POST', allow: ['POST'], permission: 'start:workflow' }, async ({ actor, request, ip }) => {
  const input = await parseJsonBody(request, startSchema);
  const instance = await startWorkflowInstance({
    type: input.workflowType,
    entityType: input.entityType,
    entityId: input.entityId,
    actor,
    ip,
  });
  return apiJson(instance, { status: 201 });
});

export function loader() {
  return methodNotAllowed(['POST']);
}
