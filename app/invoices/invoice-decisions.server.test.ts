import { describe, expect, it } from 'vitest';
import { apiFailure } from '../auth/test-helpers.server.ts';
import { approveInvoice, verifyInvoice } from './invoice-decisions.server.ts';
import { financeInvoice } from './financing.server.ts';
import { financeableClient, insertCustomer, newInvoice, staff, zagrebDay } from '../../tests/factories.ts';

describe('the duplicate rule of verification', () => {
  it('(a) the same client, customer, amount and issue date under another number is a duplicate', async () => {
    const user = await staff('user');
    const manager = await staff('manager');
    const { id: clientId } = await financeableClient();
    const { id: customerId } = await insertCustomer();
    await newInvoice(user, clientId, customerId, { invoiceNumber: '7/1/1', amount: 500, issueDate: '2026-11-01' });
    const second = await newInvoice(user, clientId, customerId, { invoiceNumber: '8/1/1', amount: 500, issueDate: '2026-11-01' });
    const failure = await apiFailure(verifyInvoice({ actor: manager, id: second.id }));
    expect(failure).toMatchObject({ status: 409, body: { message: 'Duplicate invoice: 7/1/1 (pending) has the same client, customer, amount and issue date' } });
    // Another amount is not a duplicate.
    const third = await newInvoice(user, clientId, customerId, { invoiceNumber: '9/1/1', amount: 500.01, issueDate: '2026-11-01' });
    expect((await verifyInvoice({ actor: manager, id: third.id })).status).toBe('verified');
  });

  it('(b) the same number, customer and amount already financed for another client is a duplicate', async () => {
    const user = await staff('user');
    const a = await staff('manager');
    const b = await staff('manager');
    const { id: customerId } = await insertCustomer();
    const { id: firstClient } = await financeableClient({ name: 'Prvi d.o.o.' });
    const financed = await newInvoice(user, firstClient, customerId, { invoiceNumber: '15/1/1', amount: 700 });
    await verifyInvoice({ actor: a, id: financed.id });
    await approveInvoice({ actor: b, id: financed.id });
    await financeInvoice({ actor: b, id: financed.id });
    const { id: secondClient } = await financeableClient({ name: 'Drugi d.o.o.' });
    const again = await newInvoice(user, secondClient, customerId, { invoiceNumber: ' 15/1/1', amount: 700, issueDate: zagrebDay(-20) });
    const failure = await apiFailure(verifyInvoice({ actor: a, id: again.id }));
    expect(failure).toMatchObject({ status: 409, body: { message: 'Duplicate invoice: number 15/1/1 for this customer and amount is already financed for Prvi d.o.o.' } });
    // The same number for another amount is another seller's invoice: not a duplicate.
    const other = await newInvoice(user, secondClient, customerId, { invoiceNumber: '15/1/1-b', amount: 701 });
    expect((await verifyInvoice({ actor: a, id: other.id })).status).toBe('verified');
  });
});
