import { describe, expect, it } from 'vitest';
import { apiFailure, getRequest, jsonRequest, signedInCookie } from '../auth/test-helpers.server.ts';
import { selectOne } from '../db.server.ts';
import { action as importAction } from './api.invoices.import.ts';
import { loader as payableLoader } from './api.invoices.payable.ts';
import { action as invoicesAction, loader as invoicesLoader } from './api.invoices.ts';
import { loader as detailLoader } from './api.invoices.$invoiceId.ts';
import { action as verifyAction } from './api.invoices.$invoiceId.verify.ts';
import { action as rejectAction } from './api.invoices.$invoiceId.reject.ts';
import { FIXTURE } from '../invoices/test-fixtures.server.ts';
import { createTestUser, financeableClient, insertCustomer, sellerClient } from '../../tests/factories.ts';

describe('the /api/invoices routes', () => {
  const ctx = (request: Request, params: Record<string, string> = {}) => ({ request, params, context: { clientIp: '127.0.0.1' } });

  it('POST creates (201), GET lists with X-Total-Count, GET /{id} details, PUT verify needs a manager', async () => {
    const user = await createTestUser();
    const cookie = await signedInCookie(user.id);
    const { id: clientId } = await financeableClient();
    const { id: customerId } = await insertCustomer();
    const created = await invoicesAction(
      ctx(
        jsonRequest('/api/invoices', { clientId, customerId, invoiceNumber: 'API-1', issueDate: '2026-11-01', dueDate: '2026-12-15', amount: 2500.5, description: 'Roba' }, cookie),
      ),
    );
    expect(created.status).toBe(201);
    const body = await created.json();
    expect(body).toMatchObject({ invoiceNumber: 'API-1', amount: 2500.5, currency: 'EUR', status: 'pending', clientId, customerId });

    const invalid = await apiFailure(invoicesAction(ctx(jsonRequest('/api/invoices', { invoiceNumber: '' }, cookie))));
    expect(invalid.status).toBe(400);
    expect(Object.keys(invalid.body.errors!).sort()).toEqual(['amount', 'clientId', 'customerId', 'dueDate', 'invoiceNumber', 'issueDate']);

    const list = await invoicesLoader(ctx(getRequest('/api/invoices?q=api-1&status=pending', cookie)));
    expect(list.headers.get('X-Total-Count')).toBe('1');
    expect((await list.json())[0].id).toBe(body.id);
    const detail = await detailLoader(ctx(getRequest(`/api/invoices/${body.id}`, cookie), { invoiceId: body.id }));
    expect((await detail.json()).history[0]).toMatchObject({ action: 'invoice_created', userId: user.id });
    expect((await apiFailure(detailLoader(ctx(getRequest('/api/invoices/x', cookie), { invoiceId: 'x' })))).status).toBe(404);

    const forbidden = await apiFailure(verifyAction(ctx(jsonRequest(`/api/invoices/${body.id}/verify`, undefined, cookie, 'PUT'), { invoiceId: body.id })));
    expect(forbidden.status).toBe(403);
    const manager = await createTestUser({ role: 'manager' });
    const managerCookie = await signedInCookie(manager.id);
    const verified = await verifyAction(ctx(jsonRequest(`/api/invoices/${body.id}/verify`, undefined, managerCookie, 'PUT'), { invoiceId: body.id }));
    expect(verified.status).toBe(200);
    expect((await verified.json()).status).toBe('verified');
    const noReason = await apiFailure(rejectAction(ctx(jsonRequest(`/api/invoices/${body.id}/reject`, {}, managerCookie, 'PUT'), { invoiceId: body.id })));
    expect(noReason).toMatchObject({ status: 400, body: { errors: { reason: ['Reason is required'] } } });
    const payable = await payableLoader(ctx(getRequest('/api/invoices/payable', cookie)));
    const open = await selectOne<{ n: number }>(`SELECT count(*)::int AS n FROM invoices WHERE status = 'financed' AND amount > paid_amount`);
    expect(payable.headers.get('X-Total-Count')).toBe(String(open!.n));
    expect((await apiFailure(invoicesLoader(ctx(getRequest('/api/invoices'))))).status).toBe(401);
  });

  it('POST /import takes an XML body or a multipart file; 415 for other types', async () => {
    const user = await createTestUser();
    const cookie = await signedInCookie(user.id);
    const { id: clientId } = await sellerClient();
    const xmlRequest = new Request(`http://localhost/api/invoices/import?clientId=${clientId}&createCustomer=true`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/xml', Cookie: cookie },
      body: FIXTURE,
    });
    const response = await importAction(ctx(xmlRequest));
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({ invoiceNumber: 'R-2026-0142/1/1', amount: 8136.94, customerCreated: true, source: 'ubl' });

    const form = new FormData();
    form.set('clientId', clientId);
    form.set('file', new Blob([FIXTURE.replace('R-2026-0142/1/1', 'R-2026-0150/1/1')], { type: 'text/xml' }), 'racun-150.xml');
    const multipart = await importAction(ctx(new Request('http://localhost/api/invoices/import', { method: 'POST', headers: { Cookie: cookie }, body: form })));
    expect(multipart.status).toBe(201);
    expect(await multipart.json()).toMatchObject({ invoiceNumber: 'R-2026-0150/1/1', customerCreated: false });

    const wrongType = await apiFailure(importAction(ctx(jsonRequest(`/api/invoices/import?clientId=${clientId}`, { xml: FIXTURE }, cookie))));
    expect(wrongType.status).toBe(415);
    const broken = new Request(`http://localhost/api/invoices/import?clientId=${clientId}`, {
      method: 'POST',
      headers: { 'Content-Type': 'text/xml', Cookie: cookie },
      body: FIXTURE.replace('<cbc:TaxAmount currencyID="EUR">1616.19</cbc:TaxAmount>', '<cbc:TaxAmount currencyID="EUR">1600.00</cbc:TaxAmount>'),
    });
    const refused = await apiFailure(importAction(ctx(broken)));
    expect(refused.status).toBe(400);
    expect(refused.body.errors!.xml).toEqual(expect.arrayContaining([expect.stringMatching(/^BR-CO-14: /), expect.stringMatching(/^BR-CO-15: /)]));
  });
});
