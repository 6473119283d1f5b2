import { adjustAssessment, getAssessment } from '~/risk/assessments.server.ts';
import { adjustAssessmentSchema } from '~/risk/schemas.ts';
import { apiJson, parseJsonBody, requireUuidParam } from '~/utils/api.server.ts';
import { apiAction, apiLoader } from '~/utils/api-route.server.ts';

/** GET /api/risk-assessments/{id}: one assessment with every factor. */
export const loader = apiLoader('read:all', async ({ params }) => {
  return apiJson(await getAssessment(requireUuidParam(params.id)));
});

/** PUT /api/risk-assessments/{id} {manualAdjustment, notes} (manager, 'adjust:risk') → 200 with the assessment. */
export const action = apiAction({ method: 'PUT', allow: ['GET', 'PUT'], permission: 'adjust:risk' }, async ({ actor, request, params, ip }) => {
  const id = requireUuidParam(params.id);
  const input = await parseJsonBody(request, adjustAssessmentSchema);
  return apiJson(await adjustAssessment({ actor, id, ...input, ip }));
});
