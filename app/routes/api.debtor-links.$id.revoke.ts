import { revokeDebtorLink } from '~/debtors/links.server.ts';
import { debtorPostAction } from '~/debtors/route-actions.server.ts';
import { methodNotAllowed, requireUuidParam } from '~/utils/api.server.ts';

/** POST /api/debtor-links/{id}/revoke (manager): the link stops working → 200 with it; 409 when it was spent, revoked or expired. */
export const action = debtorPostAction({
  permission: 'manage:debtor_links',
  body: false,
  run: ({ actor, params, ip }) => revokeDebtorLink({ actor, id: requireUuidParam(params.id), ip }),
  done: (link) => ({ title: 'debtors.toast.revokedTitle', description: 'debtors.toast.revoked', params: { client: link.clientName } }),
  fallback: () => '/customers',
});

export const loader = () => methodNotAllowed(['POST']);
