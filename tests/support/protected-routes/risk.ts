import type { ProtectedRoute } from '../protected-routes.ts';

const SOME_ID = '00000000-0000-4000-8000-000000000005';

export const routes: ProtectedRoute[] = [
  { method: 'GET', path: '/api/risk-assessments', role: 'user' },
  { method: 'POST', path: '/api/risk-assessments', body: { entityType: 'client', entityId: SOME_ID }, role: 'user' },
  { method: 'GET', path: `/api/risk-assessments/${SOME_ID}`, role: 'user' },
  { method: 'PUT', path: `/api/risk-assessments/${SOME_ID}`, body: { manualAdjustment: 5, notes: 'Provjera' }, role: 'manager' },
];
