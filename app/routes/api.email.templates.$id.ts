import type { ActionFunctionArgs } from '@remix-run/node';
import { clientIp } from '~/auth/login.server.ts';
import { requirePermission } from '~/auth/permissions.server.ts';
import { templateUpdateSchema } from '~/email/schemas.ts';
import { updateTemplate } from '~/email/templates.server.ts';
import { apiJson, methodNotAllowed, parseJsonBody, requireUuidParam } from '~/utils/api.server.ts';

/** PUT /api/email/templates/{id} {isActive?, name?, trigger?, subject?, body?}: 404 unknown, 400 invalid content, 409 a second active template of a trigger. */
export async function action({ request, params, context }: ActionFunctionArgs) {
  if (request.method !== 'PUT') return methodNotAllowed(['PUT']);
  const actor = await requirePermission(request, 'edit:email_template', { api: true });
  const id = requireUuidParam(params.id);
  const input = await parseJsonBody(request, templateUpdateSchema, { maxBytes: 512 * 1024 });
  return apiJson(await updateTemplate({ actor, id, input, ip: clientIp(context) }));
}

export function loader() {
  return methodNotAllowed(['PUT']);
}
