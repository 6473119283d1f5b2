import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { clientIp } from '~/auth/login.server.ts';
import { requirePermission } from '~/auth/permissions.server.ts';
import { templateCreateSchema } from '~/email/schemas.ts';
import { createTemplate, listTemplates } from '~/email/templates.server.ts';
import { apiJson, listParams, methodNotAllowed, parseJsonBody } from '~/utils/api.server.ts';

/** GET /api/email/templates: newest change first; ?limit ?offset; X-Total-Count. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requirePermission(request, 'read:all', { api: true });
  const { limit, offset } = listParams(request);
  const { templates, total } = await listTemplates({ limit, offset });
  return apiJson(templates, { headers: { 'X-Total-Count': String(total) } });
}

/** POST /api/email/templates {name, trigger, subject, body, isActive} → 201; 400 with the line of an unknown variable or syntax error; 409 a second active template of a trigger. */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['GET', 'POST']);
  const actor = await requirePermission(request, 'edit:email_template', { api: true });
  const input = await parseJsonBody(request, templateCreateSchema, { maxBytes: 512 * 1024 });
  return apiJson(await createTemplate({ actor, input, ip: clientIp(context) }), { status: 201 });
}
