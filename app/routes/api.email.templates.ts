import { templateCreateSchema } from '~/email/schemas.ts';
import { createTemplate, listTemplates } from '~/email/templates.server.ts';
import { listParams } from '~/utils/api.server.ts';
import { apiCreate, apiList, apiLoader } from '~/utils/api-route.server.ts';

/** GET /api/email/templates: newest change first; ?limit ?offset; X-Total-Count. */
export const loader = apiLoader('read:all', async ({ request }) => {
  const { limit, offset } = listParams(request);
  const { templates, total } = await listTemplates({ limit, offset });
  return apiList(templates, total);
});

/** POST /api/email/templates {name, trigger, subject, body, isActive} → 201; 400 with the line of an unknown variable or syntax error; 409 a second active template of a trigger. */
export const action = apiCreate('edit:email_template', templateCreateSchema, createTemplate, { maxBytes: 512 * 1024 });
