import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { clientIp } from '~/auth/login.server.ts';
import { requirePermission } from '~/auth/permissions.server.ts';
import { apiJson, methodNotAllowed, readJsonObject, requireUuidParam } from '~/utils/api.server.ts';
import { getDefinition, updateDefinition } from '~/workflows/definitions.server.ts';

/** GET /api/workflows/{id}: one definition. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requirePermission(request, 'read:all', { api: true });
  return apiJson(await getDefinition(requireUuidParam(params.id)));
}

/** PUT /api/workflows/{id} {name?, type?, description?, steps?, isActive?} ('edit:workflow'). */
export async function action({ request, params, context }: ActionFunctionArgs) {
  if (request.method !== 'PUT') return methodNotAllowed(['GET', 'PUT']);
  const actor = await requirePermission(request, 'edit:workflow', { api: true });
  const id = requireUuidParam(params.id);
  const input = await readJsonObject(request);
  return apiJson(await updateDefinition({ actor, id, input, ip: clientIp(context) }));
}
