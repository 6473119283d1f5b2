import type { ProtectedRoute } from '../protected-routes.ts';

// Reading the analytics and exporting them is for every staff role ('read:all').
export const routes: ProtectedRoute[] = [
  { method: 'GET', path: '/api/analytics?period=30d', role: 'user' },
  { method: 'GET', path: '/api/analytics/export.csv?period=30d', role: 'user' },
  { method: 'GET', path: '/api/analytics/export.xlsx?period=30d', role: 'user' },
];
