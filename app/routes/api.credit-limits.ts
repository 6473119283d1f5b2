import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { clientIp } from '~/auth/login.server.ts';
import { requirePermission } from '~/auth/permissions.server.ts';
import { listCreditLimitRequests, requestCreditLimit } from '~/limits/credit-limits.server.ts';
import { creditLimitRequestSchema } from '~/limits/schemas.ts';
import { apiJson, listParams, methodNotAllowed, parseJsonBody } from '~/utils/api.server.ts';

/** GET /api/credit-limits: newest first; ?status (pending|approved|rejected|expired; all by default), ?q (client name, OIB prefix), ?limit, ?offset; X-Total-Count. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requirePermission(request, 'read:all', { api: true });
  const status = new URL(request.url).searchParams.get('status');
  const { requests, total } = await listCreditLimitRequests({ ...listParams(request), status });
  return apiJson(requests, { headers: { 'X-Total-Count': String(total) } });
}

/** POST /api/credit-limits {clientId, creditLimit, reason, validUntil?} → 201 with the pending request. */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['GET', 'POST']);
  const actor = await requirePermission(request, 'create:credit_limit', { api: true });
  const input = await parseJsonBody(request, creditLimitRequestSchema);
  const created = await requestCreditLimit({ actor, input, ip: clientIp(context) });
  return apiJson(created, { status: 201 });
}
