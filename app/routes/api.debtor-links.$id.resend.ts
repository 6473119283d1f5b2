import { resendDebtorLink } from '~/debtors/links.server.ts';
import { debtorPostAction } from '~/debtors/route-actions.server.ts';
import { methodNotAllowed, requireUuidParam } from '~/utils/api.server.ts';

/** POST /api/debtor-links/{id}/resend (manager): a new link mailed to the debtor, the old one revoked → 200 with the new link. */
export const action = debtorPostAction({
  permission: 'manage:debtor_links',
  body: false,
  run: ({ actor, params, ip }) => resendDebtorLink({ actor, id: requireUuidParam(params.id), ip }),
  done: (link) => ({ title: 'debtors.toast.resentTitle', description: 'debtors.toast.resent', params: { client: link.clientName } }),
  fallback: () => '/customers',
});

export const loader = () => methodNotAllowed(['POST']);
