import type { ActionFunctionArgs } from '@remix-run/node';
import { apiAction } from '~/utils/api-route.server.ts';
import { API_ERRORS, apiError, apiJson, methodNotAllowed, requireUuidParam } from '~/utils/api.server.ts';
import { controlInstance } from '~/workflows/engine.server.ts';
import { getInstanceDetail } from '~/workflows/instances.server.ts';

const CONTROLS = ['pause', 'resume', 'restart'] as const;

/** The control the path names; another word names no route (404, before the method is looked at). */
function controlOf(params: { control?: string }) {
  const control = CONTROLS.find((name) => name === params.control);
  if (!control) throw apiError(404, API_ERRORS.notFound);
  return control;
}

const control = apiAction({ method: 'PUT', allow: ['PUT'], permission: 'run:workflow' }, async ({ actor, params, ip }) => {
  const id = requireUuidParam(params.id);
  await controlInstance({ actor, id, control: controlOf(params), ip });
  return apiJson(await getInstanceDetail(id));
});

/** PUT /api/workflow-instances/{id}/pause|resume|restart ('run:workflow', manager) → the instance. */
export function action(args: ActionFunctionArgs) {
  controlOf(args.params);
  return control(args);
}

export function loader({ params }: { params: { control?: string } }) {
  controlOf(params);
  return methodNotAllowed(['PUT']);
}
