import { transitionAction } from '~/invoices/transition-route.server.ts';
import { methodNotAllowed } from '~/utils/api.server.ts';

/** PUT /api/invoices/{id}/finance → 200 with the invoice (docs/lifecycle.md#invoices, docs/api.md). */
export const action = transitionAction('finance');

export const loader = () => methodNotAllowed(['PUT']);
