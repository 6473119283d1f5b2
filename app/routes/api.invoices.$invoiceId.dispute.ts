import { openDispute } from '~/debtors/disputes.server.ts';
import { debtorPostAction } from '~/debtors/route-actions.server.ts';
import { methodNotAllowed, requireUuidParam } from '~/utils/api.server.ts';

/** POST /api/invoices/{id}/dispute {reason} (manager): a dispute on the debtor's behalf → 201 with it; 409 when one is open. The invoice page's form posts here too. */
export const action = debtorPostAction({
  permission: 'dispute:invoice',
  status: 201,
  run: ({ actor, input, params, ip }) => openDispute({ actor, invoiceId: requireUuidParam(params.invoiceId), input, ip }),
  done: () => ({ title: 'debtors.toast.disputedTitle', description: 'debtors.toast.disputed' }),
  fallback: (params) => `/invoices/${params.invoiceId ?? ''}`,
});

export const loader = () => methodNotAllowed(['POST']);
