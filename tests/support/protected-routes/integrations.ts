import type { ProtectedRoute } from '../protected-routes.ts';

const SOME_ID = '00000000-0000-4000-8000-000000000003';

export const routes: ProtectedRoute[] = [
  { method: 'GET', path: '/api/integrations', role: 'user' },
  { method: 'GET', path: '/api/integrations/fina', role: 'user' },
  { method: 'POST', path: '/api/integrations/fina/test', role: 'admin' },
  { method: 'PUT', path: '/api/integrations/fina', body: { isEnabled: true }, role: 'admin' },
  { method: 'POST', path: `/api/customers/${SOME_ID}/fina-check`, body: {}, role: 'user' },
];
