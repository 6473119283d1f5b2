import type { ProtectedRoute } from '../protected-routes.ts';

const SOME_ID = '00000000-0000-4000-8000-000000000016';

export const routes: ProtectedRoute[] = [
  { method: 'GET', path: `/api/clients/${SOME_ID}/statement?from=2026-01-01&to=2026-01-31&format=csv`, role: 'user' },
  { method: 'GET', path: `/api/clients/${SOME_ID}/ledger-adjustments`, role: 'user' },
  { method: 'POST', path: `/api/clients/${SOME_ID}/ledger-adjustments`, body: { amount: -10, reason: 'Ispravak' }, role: 'manager' },
  { method: 'POST', path: `/api/ledger-adjustments/${SOME_ID}/approve`, role: 'manager' },
  { method: 'POST', path: `/api/ledger-adjustments/${SOME_ID}/reject`, body: { reason: 'Nije opravdano' }, role: 'manager' },
];
