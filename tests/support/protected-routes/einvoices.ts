import type { ProtectedRoute } from '../protected-routes.ts';

const SOME_ID = '00000000-0000-4000-8000-000000000003';

// Reading is for every staff role; sending an e-invoice again is a manager's decision (send:einvoice).
export const routes: ProtectedRoute[] = [
  { method: 'GET', path: '/api/einvoices', role: 'user' },
  { method: 'GET', path: `/api/einvoices/${SOME_ID}/ubl`, role: 'user' },
  { method: 'POST', path: `/api/einvoices/${SOME_ID}/send`, role: 'manager' },
];
