import { listAssessments, requestAssessment } from '~/risk/assessments.server.ts';
import { ENTITY_TYPES, newAssessmentSchema } from '~/risk/schemas.ts';
import { RISK_CATEGORIES } from '~/risk/scoring.ts';
import { apiJson, listParams, parseJsonBody } from '~/utils/api.server.ts';
import { apiAction, apiLoader, apiList } from '~/utils/api-route.server.ts';

/** An unknown filter value matches nothing rather than being ignored silently. */
function oneOf<T extends string>(values: readonly T[], value: string | null): T | null | 'none' {
  if (!value) return null;
  return (values as readonly string[]).includes(value) ? (value as T) : 'none';
}

/** GET /api/risk-assessments: newest first, ?q (entity name, OIB prefix), ?entityType, ?category, ?limit, ?offset; X-Total-Count. */
export const loader = apiLoader('read:all', async ({ request }) => {
  const { q, limit, offset } = listParams(request);
  const params = new URL(request.url).searchParams;
  const entityType = oneOf(ENTITY_TYPES, params.get('entityType'));
  const category = oneOf(RISK_CATEGORIES, params.get('category'));
  if (entityType === 'none' || category === 'none') return apiJson([], { headers: { 'X-Total-Count': '0' } });
  const { items, total } = await listAssessments({ q, entityType, category, limit, offset });
  return apiList(items, total);
});

/** POST /api/risk-assessments {entityType, entityId, notes?} → 201 with a new on-demand assessment ('assess:risk'), which starts the risk review workflow. */
export const action = apiAction({ method: 'POST', allow: ['GET', 'POST'], permission: 'assess:risk' }, async ({ actor, request, ip }) => {
  const input = await parseJsonBody(request, newAssessmentSchema);
  const assessment = await requestAssessment({ ...input, actor, ip });
  return apiJson(assessment, { status: 201 });
});
