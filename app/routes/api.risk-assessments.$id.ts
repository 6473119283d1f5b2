import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { clientIp } from '~/auth/login.server.ts';
import { requirePermission } from '~/auth/permissions.server.ts';
import { adjustAssessment, getAssessment } from '~/risk/assessments.server.ts';
import { adjustAssessmentSchema } from '~/risk/schemas.ts';
import { apiJson, methodNotAllowed, parseJsonBody, requireUuidParam } from '~/utils/api.server.ts';

/** GET /api/risk-assessments/{id}: one assessment with every factor. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requirePermission(request, 'read:all', { api: true });
  return apiJson(await getAssessment(requireUuidParam(params.id)));
}

/** PUT /api/risk-assessments/{id} {manualAdjustment, notes} (manager, 'adjust:risk') → 200 with the assessment. */
export async function action({ request, params, context }: ActionFunctionArgs) {
  if (request.method !== 'PUT') return methodNotAllowed(['GET', 'PUT']);
  const actor = await requirePermission(request, 'adjust:risk', { api: true });
  const id = requireUuidParam(params.id);
  const input = await parseJsonBody(request, adjustAssessmentSchema);
  return apiJson(await adjustAssessment({ actor, id, ...input, ip: clientIp(context) }));
}
