import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { clientIp } from '~/auth/login.server.ts';
import { requirePermission } from '~/auth/permissions.server.ts';
import { apiJson, listParams, methodNotAllowed, parseJsonBody } from '~/utils/api.server.ts';
import { createDefinition, listDefinitions } from '~/workflows/definitions.server.ts';
import { definitionSchema } from '~/workflows/schemas.ts';

/** GET /api/workflows: the definitions (active first), ?limit, ?offset; X-Total-Count. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requirePermission(request, 'read:all', { api: true });
  const { limit, offset } = listParams(request);
  const { items, total } = await listDefinitions({ limit, offset });
  return apiJson(items, { headers: { 'X-Total-Count': String(total) } });
}

/** POST /api/workflows {name, type, description?, steps} → 201, inactive until activated ('edit:workflow'). */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['GET', 'POST']);
  const actor = await requirePermission(request, 'edit:workflow', { api: true });
  const input = await parseJsonBody(request, definitionSchema);
  return apiJson(await createDefinition({ actor, input, ip: clientIp(context) }), { status: 201 });
}
