import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { clientIp } from '~/auth/login.server.ts';
import { requirePermission } from '~/auth/permissions.server.ts';
import { listAssessments, requestAssessment } from '~/risk/assessments.server.ts';
import { ENTITY_TYPES, newAssessmentSchema } from '~/risk/schemas.ts';
import { RISK_CATEGORIES } from '~/risk/scoring.ts';
import { apiJson, listParams, methodNotAllowed, parseJsonBody } from '~/utils/api.server.ts';

/** An unknown filter value matches nothing rather than being ignored silently. */
function oneOf<T extends string>(values: readonly T[], value: string | null): T | null | 'none' {
  if (!value) return null;
  return (values as readonly string[]).includes(value) ? (value as T) : 'none';
}

/** GET /api/risk-assessments: newest first, ?q (entity name, OIB prefix), ?entityType, ?category, ?limit, ?offset; X-Total-Count. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requirePermission(request, 'read:all', { api: true });
  const { q, limit, offset } = listParams(request);
  const params = new URL(request.url).searchParams;
  const entityType = oneOf(ENTITY_TYPES, params.get('entityType'));
  const category = oneOf(RISK_CATEGORIES, params.get('category'));
  if (entityType === 'none' || category === 'none') return apiJson([], { headers: { 'X-Total-Count': '0' } });
  const { items, total } = await listAssessments({ q, entityType, category, limit, offset });
  return apiJson(items, { headers: { 'X-Total-Count': String(total) } });
}

/** POST /api/risk-assessments {entityType, entityId, notes?} → 201 with a new on-demand assessment ('assess:risk'), which starts the risk review workflow. */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['GET', 'POST']);
  const actor = await requirePermission(request, 'assess:risk', { api: true });
  const input = await parseJsonBody(request, newAssessmentSchema);
  const assessment = await requestAssessment({ ...input, actor, ip: clientIp(context) });
  return apiJson(assessment, { status: 201 });
}
