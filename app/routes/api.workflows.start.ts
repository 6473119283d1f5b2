import type { ActionFunctionArgs } from '@remix-run/node';
import { clientIp } from '~/auth/login.server.ts';
import { requirePermission } from '~/auth/permissions.server.ts';
import { apiJson, methodNotAllowed, parseJsonBody } from '~/utils/api.server.ts';
import { startWorkflowInstance } from '~/workflows/instances.server.ts';
import { startSchema } from '~/workflows/schemas.ts';

/**
 * POST /api/workflows/start {workflowType, entityId, entityType} → 201 with the
 * instance ('start:workflow': managers run workflows). 404 on entityId when no
 * such entity exists or the workflow does not work on its type.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['POST']);
  const actor = await requirePermission(request, 'start:workflow', { api: true });
  const input = await parseJsonBody(request, startSchema);
  const instance = await startWorkflowInstance({
    type: input.workflowType,
    entityType: input.entityType,
    entityId: input.entityId,
    actor,
    ip: clientIp(context),
  });
  return apiJson(instance, { status: 201 });
}

export function loader() {
  return methodNotAllowed(['POST']);
}
