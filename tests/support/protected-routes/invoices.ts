import type { ProtectedRoute } from '../protected-routes.ts';

const SOME_ID = '00000000-0000-4000-8000-000000000003';

// Reads, creation and import are the daily queue (user); the decisions are the manager's
// (app/auth/permissions.server.ts: verify/approve/finance/reject:invoice).
export const routes: ProtectedRoute[] = [
  { method: 'GET', path: '/api/invoices', role: 'user' },
  {
    method: 'POST',
    path: '/api/invoices',
    body: { clientId: SOME_ID, customerId: SOME_ID, invoiceNumber: '1/1/1', issueDate: '2026-01-01', dueDate: '2026-02-01', amount: 100 },
    role: 'user',
  },
  { method: 'GET', path: '/api/invoices/payable', role: 'user' },
  { method: 'POST', path: '/api/invoices/import', role: 'user' },
  { method: 'GET', path: `/api/invoices/${SOME_ID}`, role: 'user' },
  { method: 'PUT', path: `/api/invoices/${SOME_ID}/verify`, role: 'manager' },
  { method: 'PUT', path: `/api/invoices/${SOME_ID}/approve`, role: 'manager' },
  { method: 'PUT', path: `/api/invoices/${SOME_ID}/finance`, role: 'manager' },
  { method: 'PUT', path: `/api/invoices/${SOME_ID}/reject`, body: { reason: 'Test' }, role: 'manager' },
  // Dilution (app/dilution/): reading the credit notes is the daily queue; entering one and resolving a dispute the manager's.
  { method: 'GET', path: `/api/invoices/${SOME_ID}/credit-notes`, role: 'user' },
  { method: 'POST', path: `/api/invoices/${SOME_ID}/credit-notes`, body: { number: 'ODB-1', issueDate: '2026-01-10', amount: 10, reason: 'Povrat' }, role: 'manager' },
  { method: 'PUT', path: `/api/invoices/${SOME_ID}/dispute/resolve`, body: { outcome: 'rejected', note: 'Neosnovano' }, role: 'manager' },
];
