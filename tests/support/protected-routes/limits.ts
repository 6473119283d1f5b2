import type { ProtectedRoute } from '../protected-routes.ts';

const SOME_ID = '00000000-0000-4000-8000-000000000006';

export const routes: ProtectedRoute[] = [
  { method: 'GET', path: '/api/credit-limits', role: 'user' },
  { method: 'POST', path: '/api/credit-limits', body: { clientId: SOME_ID, creditLimit: 50000, reason: 'Provjera' }, role: 'user' },
  { method: 'PUT', path: `/api/credit-limits/${SOME_ID}/approve`, body: { approvedLimit: 50000 }, role: 'manager' },
  { method: 'PUT', path: `/api/credit-limits/${SOME_ID}/reject`, body: { reason: 'Odbijeno od strane administratora' }, role: 'manager' },
];
