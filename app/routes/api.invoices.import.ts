import { readUblUpload } from '~/invoices/import-request.server.ts';
import { importUblInvoice } from '~/invoices/ubl-import.server.ts';
import { apiJson, methodNotAllowed } from '~/utils/api.server.ts';
import { apiAction } from '~/utils/api-route.server.ts';

/**
 * POST /api/invoices/import: a UBL 2.1 e-invoice (XML body with ?clientId=&createCustomer=,
 * or multipart with clientId, createCustomer, file) → 201 with the invoice and customerCreated.
 * 400 names the failing rule; 409 with proposedCustomer when the buyer is new and
 * createCustomer is not set; 413 over 5 MB; 415 another content type.
 */
export const action = apiAction({ method: 'POST', allow: ['POST'], permission: 'create:invoice' }, async ({ actor, request, ip }) => {
  const upload = await readUblUpload(request);
  const invoice = await importUblInvoice({ actor, ...upload, ip });
  return apiJson(invoice, { status: 201 });
});

export const loader = () => methodNotAllowed(['POST']);
