import { paymentTransitionAction } from '~/payments/transition-route.server.ts';
import { methodNotAllowed } from '~/utils/api.server.ts';

/** PUT /api/payments/{id}/fail (manager) → 200 with the payment. */
export const action = paymentTransitionAction('fail');

export const loader = () => methodNotAllowed(['PUT']);
