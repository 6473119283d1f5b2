import type { ProtectedRoute } from '../protected-routes.ts';

const SOME_ID = '00000000-0000-4000-8000-000000000006';

// Recording payments, importing statements and assigning their entries are the daily queue (user);
// confirming, failing and refunding are the manager's ('confirm:payment'), and so is exporting
// payouts to the bank ('finance:invoice') — see app/auth/permissions.server.ts.
export const routes: ProtectedRoute[] = [
  { method: 'GET', path: '/api/payments', role: 'user' },
  { method: 'POST', path: '/api/payments', body: { invoiceId: SOME_ID, amount: 10 }, role: 'user' },
  { method: 'PUT', path: `/api/payments/${SOME_ID}/confirm`, role: 'manager' },
  { method: 'PUT', path: `/api/payments/${SOME_ID}/fail`, role: 'manager' },
  { method: 'PUT', path: `/api/payments/${SOME_ID}/refund`, role: 'manager' },
  { method: 'GET', path: '/api/payouts', role: 'user' },
  { method: 'POST', path: '/api/payouts/export', body: { ids: [SOME_ID] }, role: 'manager' },
  { method: 'POST', path: '/api/bank-statements', role: 'user' },
  { method: 'GET', path: '/api/bank-statements/unmatched', role: 'user' },
  { method: 'POST', path: `/api/bank-statements/unmatched/${SOME_ID}/assign`, body: { invoiceId: SOME_ID }, role: 'user' },
];
