import { debtorPostAction } from '~/debtors/route-actions.server.ts';
import { requestDebtorConfirmation } from '~/debtors/notices.server.ts';
import { methodNotAllowed } from '~/utils/api.server.ts';

/**
 * POST /api/debtor-links {clientId, customerId} (manager): ask the debtor to confirm the pair's open invoices — a new notice
 * of assignment mailed with a new link → 201 with the link (docs/collections.md). The customer page's form posts here too.
 */
export const action = debtorPostAction({
  permission: 'manage:debtor_links',
  status: 201,
  run: ({ actor, input, ip }) => requestDebtorConfirmation({ actor, input, ip }),
  done: (link) => ({ title: 'debtors.toast.requestedTitle', description: 'debtors.toast.requested', params: { client: link.clientName } }),
  fallback: () => '/customers',
});

export const loader = () => methodNotAllowed(['POST']);
