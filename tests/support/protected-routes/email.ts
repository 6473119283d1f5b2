import type { ProtectedRoute } from '../protected-routes.ts';

const SOME_ID = '00000000-0000-4000-8000-000000000008';

export const routes: ProtectedRoute[] = [
  { method: 'GET', path: '/api/email/templates', role: 'user' },
  { method: 'POST', path: '/api/email/templates', body: { name: 'Predložak', subject: 'Naslov', body: 'Tekst' }, role: 'manager' },
  { method: 'PUT', path: `/api/email/templates/${SOME_ID}`, body: { isActive: false }, role: 'manager' },
  { method: 'POST', path: '/api/email/templates/preview', body: { subject: 'Naslov', body: 'Tekst' }, role: 'manager' },
  { method: 'GET', path: '/api/email/campaigns', role: 'user' },
  { method: 'POST', path: '/api/email/campaigns', body: { name: 'Kampanja', templateId: SOME_ID }, role: 'manager' },
  { method: 'GET', path: '/api/email/logs', role: 'user' },
];
