import { previewTemplate, validateTemplate } from '~/email/render.server.ts';
import { templatePreviewSchema } from '~/email/schemas.ts';
import { apiError, apiJson, methodNotAllowed, parseJsonBody, type FieldErrors } from '~/utils/api.server.ts';
import { apiAction } from '~/utils/api-route.server.ts';

/** POST /api/email/templates/preview {subject, body} → {subject, html, text} with sample data (docs/api.md); 400 with the line of a problem. */
export const action = apiAction({ method: 'POST', allow: ['POST'], permission: 'edit:email_template' }, async ({ request }) => {
  const input = await parseJsonBody(request, templatePreviewSchema, { maxBytes: 512 * 1024 });
  const problems = validateTemplate(input);
  if (problems.length > 0) {
    const errors: FieldErrors = {};
    for (const problem of problems) (errors[problem.field] ??= []).push(problem.message);
    throw apiError(400, problems[0].message, { errors: errors });
  }
  return apiJson(previewTemplate(input));
});

export function loader() {
  return methodNotAllowed(['POST']);
}
