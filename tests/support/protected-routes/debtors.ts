import type { ProtectedRoute } from '../protected-routes.ts';

const SOME_ID = '00000000-0000-4000-8000-000000000003';

/** The debtor's side (docs/collections.md); the debtor's own page /debtor/{token} is public and no /api route. */
export const routes: ProtectedRoute[] = [
  { method: 'GET', path: `/api/customers/${SOME_ID}/debtor-links`, role: 'user' },
  { method: 'POST', path: '/api/debtor-links', body: { clientId: SOME_ID, customerId: SOME_ID }, role: 'manager' },
  { method: 'POST', path: `/api/debtor-links/${SOME_ID}/resend`, role: 'manager' },
  { method: 'POST', path: `/api/debtor-links/${SOME_ID}/revoke`, role: 'manager' },
  { method: 'POST', path: `/api/invoices/${SOME_ID}/dispute`, body: { reason: 'Roba nije isporučena.' }, role: 'manager' },
];
