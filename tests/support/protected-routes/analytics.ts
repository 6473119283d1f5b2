import type { ProtectedRoute } from '../protected-routes.ts';

// Reading the analytics and exporting them is for every staff role ('read:all').
export const routes: ProtectedRoute[] = [
  { method: 'GET', path: '/api/analytics?period=30d', role: 'user' },
  { method: 'GET', path: '/api/analytics/export.csv?period=30d', role: 'user' },
  { method: 'GET', path: '/api/analytics/export.xlsx?period=30d', role: 'user' },
  { method: 'GET', path: '/api/analytics/ageing?by=customer', role: 'user' },
  { method: 'GET', path: '/api/analytics/ageing/invoices?by=client&partyId=00000000-0000-4000-8000-000000000000', role: 'user' },
  { method: 'GET', path: '/api/analytics/ageing/export.csv', role: 'user' },
  { method: 'GET', path: '/api/analytics/ageing/export.xlsx', role: 'user' },
];
