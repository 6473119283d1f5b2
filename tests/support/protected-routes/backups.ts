import type { ProtectedRoute } from '../protected-routes.ts';

const SOME_ID = '00000000-0000-4000-8000-000000000009';

// Settings' data card: exporting the book and database backups are for admins ('export:data', 'manage:backups').
export const routes: ProtectedRoute[] = [
  { method: 'GET', path: '/api/exports/book.zip', role: 'admin' },
  { method: 'GET', path: '/api/backups', role: 'admin' },
  { method: 'POST', path: '/api/backups', role: 'admin' },
  { method: 'GET', path: `/api/backups/${SOME_ID}/download`, role: 'admin' },
];
