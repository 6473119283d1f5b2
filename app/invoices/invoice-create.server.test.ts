import { describe, expect, it } from 'vitest';
import { activityRows, apiFailure } from '../auth/test-helpers.server.ts';
import { createInvoice } from './invoice-create.server.ts';
import { getInvoiceDetail } from './invoice-queries.server.ts';
import { financeableClient, insertCustomer, newInvoice, staff } from '../../tests/factories.ts';

describe('creating an invoice', () => {
  it('stores it pending with invoice_created and refuses unknown parties, duplicates, bad dates and amounts', async () => {
    const user = await staff('user');
    const { id: clientId } = await financeableClient();
    const { id: customerId } = await insertCustomer();
    const invoice = await newInvoice(user, clientId, customerId, { invoiceNumber: 'A-1', amount: '1234.5' });
    expect(invoice).toMatchObject({ status: 'pending', amount: 1234.5, currency: 'EUR', clientId, customerId, source: 'manual' });
    const [log] = await activityRows('invoice_created', invoice.id);
    expect(log).toMatchObject({ user_id: user.id, ip_address: '10.1.1.1', details: { invoiceNumber: 'A-1', amount: 1234.5, fromStatus: null, toStatus: 'pending' } });

    const unknown = '00000000-0000-4000-8000-0000000000aa';
    expect((await apiFailure(newInvoice(user, unknown, customerId))).body).toMatchObject({
      message: 'Client not found',
      code: 'invoices.validation.clientNotFound',
      errors: { clientId: ['Client not found'] },
    });
    expect((await apiFailure(newInvoice(user, clientId, unknown))).body.errors).toEqual({ customerId: ['Customer not found'] });
    const duplicate = await apiFailure(newInvoice(user, clientId, customerId, { invoiceNumber: 'A-1' }));
    expect(duplicate).toMatchObject({ status: 409, body: { errors: { invoiceNumber: ['An invoice with this number already exists for this client'] } } });
    const dates = await apiFailure(newInvoice(user, clientId, customerId, { issueDate: '2026-05-02', dueDate: '2026-05-01' }));
    expect(dates.body.errors).toEqual({ dueDate: ['Due date cannot be before the issue date'] });
    for (const amount of ['10.001', 0, -5, 'abc']) {
      expect((await apiFailure(newInvoice(user, clientId, customerId, { amount }))).body.errors).toEqual({
        amount: ['Amount must be a positive number with at most 2 decimals'],
      });
    }
  });

  it('with lines: each net is quantity × price and the amount must be their total with VAT', async () => {
    const user = await staff('user');
    const { id: clientId } = await financeableClient();
    const { id: customerId } = await insertCustomer();
    const input = {
      clientId,
      customerId,
      invoiceNumber: 'L-1',
      issueDate: '2026-11-01',
      dueDate: '2026-12-01',
      lines: [
        { description: 'Daske', quantity: '2.5', unitPrice: '10.333', vatRate: '25' },
        { description: 'Knjiga', quantity: 1, unitPrice: 20, vatRate: 5, kpdCode: '58.11.19' },
      ],
    };
    // 2.5 × 10.333 = 25.8325 → 25.83, VAT 6.4575 → 6.46; 20.00 + 1.00: total 53.29.
    const wrong = await apiFailure(createInvoice({ actor: user, input: { ...input, amount: 53.3 } }));
    expect(wrong.body.errors).toEqual({ amount: ['Amount must equal the lines’ net amounts plus VAT (53.29)'] });
    const created = await createInvoice({ actor: user, input: { ...input, amount: 53.29 } });
    expect((await getInvoiceDetail(created.id)).lines.map((line) => [line.netAmount, line.unitPrice, line.vatRate])).toEqual([
      [25.83, '10.3330', 25],
      [20, '20.0000', 5],
    ]);
  });
});
