import type { ProtectedRoute } from '../protected-routes.ts';

const SOME_ID = '00000000-0000-4000-8000-000000000002';

export const routes: ProtectedRoute[] = [
  { method: 'GET', path: '/api/clients', role: 'user' },
  { method: 'POST', path: '/api/clients', body: { companyName: 'Test d.o.o.', oib: '12345678903' }, role: 'user' },
  { method: 'GET', path: `/api/clients/${SOME_ID}`, role: 'user' },
  { method: 'PUT', path: `/api/clients/${SOME_ID}`, body: { city: 'Zagreb' }, role: 'user' },
  { method: 'POST', path: `/api/clients/${SOME_ID}/kyc-decision`, body: { decision: 'approve' }, role: 'manager' },
  { method: 'GET', path: '/api/customers', role: 'user' },
  { method: 'POST', path: '/api/customers', body: { companyName: 'Test d.o.o.', oib: '12345678903' }, role: 'user' },
  { method: 'GET', path: `/api/customers/${SOME_ID}`, role: 'user' },
  { method: 'PUT', path: `/api/customers/${SOME_ID}`, body: { city: 'Zagreb' }, role: 'user' },
];
