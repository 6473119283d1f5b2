import type { ProtectedRoute } from '../protected-routes.ts';

const SOME_ID = '00000000-0000-4000-8000-000000000003';

export const routes: ProtectedRoute[] = [
  { method: 'GET', path: '/api/tasks', role: 'user' },
  { method: 'POST', path: '/api/tasks', body: { title: 'Provjera', type: 'manual_review' }, role: 'user' },
  { method: 'GET', path: `/api/tasks/${SOME_ID}`, role: 'user' },
  { method: 'PUT', path: `/api/tasks/${SOME_ID}`, body: { status: 'in_progress' }, role: 'user' },
  { method: 'GET', path: '/api/pending-tasks', role: 'user' },
];
