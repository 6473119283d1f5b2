import type { ActionFunctionArgs } from '@remix-run/node';
import { requirePermission } from '~/auth/permissions.server.ts';
import { previewTemplate, validateTemplate } from '~/email/render.server.ts';
import { templatePreviewSchema } from '~/email/schemas.ts';
import { apiError, apiJson, methodNotAllowed, parseJsonBody, type FieldErrors } from '~/utils/api.server.ts';

/** POST /api/email/templates/preview {subject, body} → {subject, html, text} with sample data (docs/api.md); 400 with the line of a problem. */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['POST']);
  await requirePermission(request, 'edit:email_template', { api: true });
  const input = await parseJsonBody(request, templatePreviewSchema, { maxBytes: 512 * 1024 });
  const problems = validateTemplate(input);
  if (problems.length > 0) {
    const errors: FieldErrors = {};
    for (const problem of problems) (errors[problem.field] ??= []).push(problem.message);
    throw apiError(400, problems[0].message, { errors: errors });
  }
  return apiJson(previewTemplate(input));
}

export function loader() {
  return methodNotAllowed(['POST']);
}
