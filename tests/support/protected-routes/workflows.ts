import type { ProtectedRoute } from '../protected-routes.ts';

const SOME_ID = '00000000-0000-4000-8000-000000000007';
const STEPS = [{ name: 'KYC pregled', type: 'manual', taskType: 'kyc_verification' }];

export const routes: ProtectedRoute[] = [
  { method: 'GET', path: '/api/workflows', role: 'user' },
  { method: 'POST', path: '/api/workflows', body: { name: 'Test', type: 'client_onboarding', steps: STEPS }, role: 'manager' },
  { method: 'GET', path: `/api/workflows/${SOME_ID}`, role: 'user' },
  { method: 'PUT', path: `/api/workflows/${SOME_ID}`, body: { isActive: false }, role: 'manager' },
  { method: 'POST', path: `/api/workflows/${SOME_ID}/test`, body: { entityId: SOME_ID }, role: 'manager' },
  { method: 'POST', path: '/api/workflows/start', body: { workflowType: 'client_onboarding', entityType: 'client', entityId: SOME_ID }, role: 'manager' },
  { method: 'GET', path: '/api/workflow-instances', role: 'user' },
  { method: 'GET', path: `/api/workflow-instances/${SOME_ID}`, role: 'user' },
  { method: 'PUT', path: `/api/workflow-instances/${SOME_ID}/pause`, role: 'manager' },
  { method: 'PUT', path: `/api/workflow-instances/${SOME_ID}/resume`, role: 'manager' },
  { method: 'PUT', path: `/api/workflow-instances/${SOME_ID}/restart`, role: 'manager' },
  { method: 'GET', path: '/api/workflow-metrics', role: 'user' },
];
