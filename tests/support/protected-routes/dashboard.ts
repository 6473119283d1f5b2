import type { ProtectedRoute } from '../protected-routes.ts';

export const routes: ProtectedRoute[] = [
  { method: 'GET', path: '/api/dashboard/metrics', role: 'user' },
  { method: 'GET', path: '/api/activity-logs', role: 'user' },
  { method: 'GET', path: '/api/monitoring', role: 'user' },
];
