import type { ProtectedRoute } from '../protected-routes.ts';

const SOME_ID = '00000000-0000-4000-8000-000000000001';

// POST /api/auth/forgot-password and /api/auth/reset-password are public on purpose (account recovery) and so are not listed.
export const routes: ProtectedRoute[] = [
  { method: 'GET', path: '/api/auth/user', role: 'user' },
  { method: 'PUT', path: '/api/auth/profile', body: { firstName: 'A', lastName: 'B', email: 'a@b.hr' }, role: 'user' },
  { method: 'PUT', path: '/api/auth/change-password', body: { currentPassword: 'x', newPassword: 'yyyyyyyy', confirmPassword: 'yyyyyyyy' }, role: 'user' },
  { method: 'GET', path: '/api/admin/users', role: 'admin' },
  { method: 'POST', path: '/api/admin/users', body: { email: 'n@finflow.local', firstName: 'N', lastName: 'N', role: 'user' }, role: 'admin' },
  { method: 'PUT', path: `/api/admin/users/${SOME_ID}/role`, body: { role: 'manager' }, role: 'admin' },
  { method: 'PUT', path: `/api/admin/users/${SOME_ID}/status`, body: { isActive: false }, role: 'admin' },
  { method: 'PUT', path: `/api/admin/users/${SOME_ID}/otp`, body: { otpEnabled: false }, role: 'admin' },
  { method: 'POST', path: `/api/admin/users/${SOME_ID}/reset-totp`, role: 'admin' },
];
