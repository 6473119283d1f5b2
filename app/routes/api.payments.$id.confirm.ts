import { paymentTransitionAction } from '~/payments/transition-route.server.ts';
import { methodNotAllowed } from '~/utils/api.server.ts';

/** PUT /api/payments/{id}/confirm (manager) → 200 with the payment. */
export const action = paymentTransitionAction('confirm');

export const loader = () => methodNotAllowed(['PUT']);
