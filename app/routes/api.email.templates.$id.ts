import { templateUpdateSchema } from '~/email/schemas.ts';
import { updateTemplate } from '~/email/templates.server.ts';
import { apiJson, methodNotAllowed, parseJsonBody, requireUuidParam } from '~/utils/api.server.ts';
import { apiAction } from '~/utils/api-route.server.ts';

/** PUT /api/email/templates/{id} {isActive?, name?, trigger?, subject?, body?}: 404 unknown, 400 invalid content, 409 a second active template of a trigger. */
export const action = apiAction({ method: 'PUT', allow: ['PUT'], permission: 'edit:email_template' }, async ({ actor, request, params, ip }) => {
  const id = requireUuidParam(params.id);
  const input = await parseJsonBody(request, templateUpdateSchema, { maxBytes: 512 * 1024 });
  return apiJson(await updateTemplate({ actor, id, input, ip }));
});

export function loader() {
  return methodNotAllowed(['PUT']);
}
