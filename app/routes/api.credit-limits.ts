import { listCreditLimitRequests, requestCreditLimit } from '~/limits/credit-limits.server.ts';
import { creditLimitRequestSchema } from '~/limits/schemas.ts';
import { listParams } from '~/utils/api.server.ts';
import { apiCreate, apiList, apiLoader } from '~/utils/api-route.server.ts';

/**
 * GET /api/credit-limits: newest first; ?status (pending|approved|rejected|expired; all by default),
 * ?partyType (client|customer; both by default), ?q (party name, OIB prefix), ?limit, ?offset; X-Total-Count.
 */
export const loader = apiLoader('read:all', async ({ request }) => {
  const search = new URL(request.url).searchParams;
  const { requests, total } = await listCreditLimitRequests({ ...listParams(request), status: search.get('status'), partyType: search.get('partyType') });
  return apiList(requests, total);
});

/** POST /api/credit-limits {clientId | customerId, creditLimit, reason, validUntil?} → 201 with the pending request (a client's or a debtor's limit). */
export const action = apiCreate('create:credit_limit', creditLimitRequestSchema, requestCreditLimit);
