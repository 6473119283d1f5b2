import type { ProtectedRoute } from '../protected-routes.ts';

const SOME_ID = '00000000-0000-4000-8000-000000000003';

// The payment slip is a read (user); the hold on an invoice's reminders is the manager's
// (app/auth/permissions.server.ts: hold:dunning).
export const routes: ProtectedRoute[] = [
  { method: 'GET', path: `/api/invoices/${SOME_ID}/payment-slip`, role: 'user' },
  { method: 'PUT', path: `/api/invoices/${SOME_ID}/dunning-hold`, body: { hold: true, reason: 'Test' }, role: 'manager' },
];
