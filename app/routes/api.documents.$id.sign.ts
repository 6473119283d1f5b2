import type { ActionFunctionArgs } from '@remix-run/node';
import { clientIp } from '~/auth/login.server.ts';
import { requirePermission } from '~/auth/permissions.server.ts';
import { signDocument } from '~/documents/documents.server.ts';
import { apiJson, methodNotAllowed, requireUuidParam } from '~/utils/api.server.ts';

/** PUT /api/documents/{id}/sign (manager and above): pending → signed through the e-signature adapter; 409 otherwise. */
export async function action({ request, params, context }: ActionFunctionArgs) {
  if (request.method !== 'PUT') return methodNotAllowed(['PUT']);
  const actor = await requirePermission(request, 'sign:document', { api: true });
  return apiJson(await signDocument({ actor, id: requireUuidParam(params.id), ip: clientIp(context) }));
}

export const loader = () => methodNotAllowed(['PUT']);
