import type { ProtectedRoute } from '../protected-routes.ts';

// Reading the analytics and exporting them is for every staff role ('read:all'): each is a GET open to 'user'.
export const routes: ProtectedRoute[] = [
  '/api/analytics?period=30d',
  '/api/analytics/export.csv?period=30d',
  '/api/analytics/export.xlsx?period=30d',
  '/api/analytics/ageing?by=customer',
  '/api/analytics/ageing/invoices?by=client&partyId=00000000-0000-4000-8000-000000000000',
  '/api/analytics/ageing/export.csv',
  '/api/analytics/ageing/export.xlsx',
].map((path) => ({ method: 'GET', path, role: 'user' }));
