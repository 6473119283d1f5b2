import type { ActionFunctionArgs } from '@remix-run/node';
import { clientIp } from '~/auth/login.server.ts';
import { requirePermission } from '~/auth/permissions.server.ts';
import { rejectCreditLimit } from '~/limits/credit-limits.server.ts';
import { rejectCreditLimitSchema } from '~/limits/schemas.ts';
import { apiJson, methodNotAllowed, parseJsonBody, requireUuidParam } from '~/utils/api.server.ts';

/**
 * PUT /api/credit-limits/{id}/reject {reason} → 200 with the request.
 * Manager; 403 for the request's own author, 409 unless pending (docs/domain-model.md#roles-and-permissions, docs/lifecycle.md#credit-limits).
 */
export async function action({ request, params, context }: ActionFunctionArgs) {
  if (request.method !== 'PUT') return methodNotAllowed(['PUT']);
  const actor = await requirePermission(request, 'decide:credit_limit', { api: true });
  const id = requireUuidParam(params.id);
  const { reason } = await parseJsonBody(request, rejectCreditLimitSchema);
  return apiJson(await rejectCreditLimit({ actor, id, reason, ip: clientIp(context) }));
}

export const loader = () => methodNotAllowed(['PUT']);
