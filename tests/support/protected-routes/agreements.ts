import type { ProtectedRoute } from '../protected-routes.ts';

const SOME_ID = '00000000-0000-4000-8000-000000000002';
const TERMS = { number: 'UF-2026-0001', effectiveFrom: '2026-01-01', advanceRate: 80, feeModel: 'discount_30', feeRate: 1.5, recourse: false, maxTenorDays: 90, disclosed: true };

export const routes: ProtectedRoute[] = [
  { method: 'GET', path: `/api/clients/${SOME_ID}/agreements`, role: 'user' },
  { method: 'POST', path: `/api/clients/${SOME_ID}/agreements`, body: TERMS, role: 'manager' },
  { method: 'PUT', path: `/api/agreements/${SOME_ID}`, body: TERMS, role: 'manager' },
  { method: 'POST', path: `/api/agreements/${SOME_ID}/send-for-signature`, role: 'manager' },
  { method: 'POST', path: `/api/agreements/${SOME_ID}/mark-signed`, body: { signedOn: '2026-01-01' }, role: 'manager' },
];
