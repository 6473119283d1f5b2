import { paymentTransitionAction } from '~/payments/transition-route.server.ts';
import { methodNotAllowed } from '~/utils/api.server.ts';

/** PUT /api/payments/{id}/refund (manager) → 200 with the payment. */
export const action = paymentTransitionAction('refund');

export const loader = () => methodNotAllowed(['PUT']);
