import type { ProtectedRoute } from '../protected-routes.ts';

const SOME_ID = '00000000-0000-4000-8000-000000000017';

export const routes: ProtectedRoute[] = [
  { method: 'PUT', path: `/api/invoices/${SOME_ID}/charge-back`, body: { reason: 'Dužnik u stečaju' }, role: 'manager' },
  { method: 'POST', path: `/api/invoices/${SOME_ID}/write-off`, body: { reason: 'Dužnik likvidiran' }, role: 'manager' },
  { method: 'GET', path: '/api/write-offs', role: 'user' },
  { method: 'PUT', path: `/api/write-offs/${SOME_ID}/approve`, role: 'admin' },
  { method: 'PUT', path: `/api/write-offs/${SOME_ID}/reject`, body: { reason: 'Još se naplaćuje' }, role: 'admin' },
];
