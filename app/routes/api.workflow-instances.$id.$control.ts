import type { ActionFunctionArgs } from '@remix-run/node';
import { clientIp } from '~/auth/login.server.ts';
import { requirePermission } from '~/auth/permissions.server.ts';
import { API_ERRORS, apiError, apiJson, methodNotAllowed, requireUuidParam } from '~/utils/api.server.ts';
import { controlInstance } from '~/workflows/engine.server.ts';
import { getInstanceDetail } from '~/workflows/instances.server.ts';

const CONTROLS = ['pause', 'resume', 'restart'] as const;

/** PUT /api/workflow-instances/{id}/pause|resume|restart ('run:workflow', manager) → the instance. */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const control = CONTROLS.find((name) => name === params.control);
  if (!control) throw apiError(404, API_ERRORS.notFound);
  if (request.method !== 'PUT') return methodNotAllowed(['PUT']);
  const actor = await requirePermission(request, 'run:workflow', { api: true });
  const id = requireUuidParam(params.id);
  await controlInstance({ actor, id, control, ip: clientIp(context) });
  return apiJson(await getInstanceDetail(id));
}

export function loader({ params }: { params: { control?: string } }) {
  if (!CONTROLS.some((name) => name === params.control)) throw apiError(404, API_ERRORS.notFound);
  return methodNotAllowed(['PUT']);
}
