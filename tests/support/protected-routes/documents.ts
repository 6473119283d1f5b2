import type { ProtectedRoute } from '../protected-routes.ts';

const SOME_ID = '00000000-0000-4000-8000-000000000001';

// POST/PUT /api/objects/upload are public on purpose (docs/api.md) and so are not listed.
export const routes: ProtectedRoute[] = [
  { method: 'GET', path: '/api/documents', role: 'user' },
  {
    method: 'POST',
    path: '/api/documents',
    body: { name: 'Izvadak', type: 'kyc_document', entityType: 'client', entityId: SOME_ID, fileUrl: SOME_ID, size: 10, mimeType: 'application/pdf' },
    role: 'user',
  },
  { method: 'POST', path: '/api/documents/upload', body: { name: 'a.pdf', type: 'contract', fileData: 'JVBERi0xLjQK', signatureRequired: false }, role: 'user' },
  { method: 'GET', path: `/api/documents/${SOME_ID}/download`, role: 'user' },
  { method: 'GET', path: `/api/documents/${SOME_ID}/view`, role: 'user' },
  { method: 'PUT', path: `/api/documents/${SOME_ID}/sign`, role: 'manager' },
];
