import { describe, expect, it } from 'vitest';
import { apiFailure } from '../auth/test-helpers.server.ts';
import { execute, selectOne } from '../db.server.ts';
import { approveInvoice, rejectInvoice, verifyInvoice } from './invoice-decisions.server.ts';
import { financeInvoice } from './financing.server.ts';
import { invoiceTabCounts, listInvoices, listPayableInvoices } from './invoice-queries.server.ts';
import { financeableClient, insertCustomer, newInvoice, staff } from '../../tests/factories.ts';

describe('lists, tab counts and the payable list', () => {
  it('agree with independent SQL counts, with and without a search', async () => {
    const user = await staff('user');
    const a = await staff('manager');
    const b = await staff('manager');
    const { id: clientId } = await financeableClient();
    const { id: otherClient } = await financeableClient();
    const { id: customerId } = await insertCustomer();
    const made: string[] = [];
    for (let i = 0; i < 9; i++) {
      const invoice = await newInvoice(user, i % 3 === 0 ? otherClient : clientId, customerId, {
        amount: 1000 + i,
        description: i % 2 === 0 ? 'Hrastova građa' : 'Usluga prijevoza',
      });
      made.push(invoice.id);
      if (i % 4 === 1) await rejectInvoice({ actor: a, id: invoice.id, input: { reason: 'Ne' } });
      if (i % 4 === 2 || i % 4 === 3) await verifyInvoice({ actor: a, id: invoice.id });
      if (i % 4 === 3) await approveInvoice({ actor: b, id: invoice.id });
      if (i === 7) await financeInvoice({ actor: b, id: invoice.id });
    }
    const sqlCount = async (where: string, replacements: Record<string, unknown> = {}) =>
      (await selectOne<{ n: number }>(`SELECT count(*)::int AS n FROM invoices WHERE ${where}`, replacements))!.n;

    expect(await invoiceTabCounts()).toEqual({
      all: await sqlCount('true'),
      pending: await sqlCount(`status = 'pending'`),
      verified: await sqlCount(`status = 'verified'`),
      approved: await sqlCount(`status = 'approved'`),
      rejected: await sqlCount(`status = 'rejected'`),
      charged_back: await sqlCount(`status = 'charged_back'`),
      written_off: await sqlCount(`status = 'written_off'`),
    });
    expect(await invoiceTabCounts({ q: 'PRIJEVOZ' })).toEqual({
      all: await sqlCount(`description ILIKE '%prijevoz%'`),
      pending: await sqlCount(`description ILIKE '%prijevoz%' AND status = 'pending'`),
      verified: await sqlCount(`description ILIKE '%prijevoz%' AND status = 'verified'`),
      approved: await sqlCount(`description ILIKE '%prijevoz%' AND status = 'approved'`),
      rejected: await sqlCount(`description ILIKE '%prijevoz%' AND status = 'rejected'`),
      charged_back: await sqlCount(`description ILIKE '%prijevoz%' AND status = 'charged_back'`),
      written_off: await sqlCount(`description ILIKE '%prijevoz%' AND status = 'written_off'`),
    });
    for (const status of ['pending', 'verified', 'approved', 'rejected', 'financed'] as const) {
      const { items, total } = await listInvoices({ status });
      expect(total).toBe(await sqlCount('status = :status', { status }));
      expect(items.every((item) => item.status === status)).toBe(true);
    }
    const byClient = await listInvoices({ clientId, limit: 2, offset: 1 });
    expect(byClient.total).toBe(await sqlCount('client_id = :clientId', { clientId }));
    expect(byClient.items).toHaveLength(2);
    const newestFirst = await listInvoices({ customerId, limit: 1000 });
    expect(newestFirst.items.map((item) => item.id)).toEqual([...made].reverse());
    expect(newestFirst.items[0]).toMatchObject({ clientName: expect.any(String), customerName: expect.any(String), paidAmount: 0 });
    const byNumber = await listInvoices({ q: made.length ? newestFirst.items[0].invoiceNumber : '' });
    expect(byNumber.items.map((item) => item.id)).toContain(made[8]);
    expect((await apiFailure(listInvoices({ status: 'lost' }))).status).toBe(400);
    expect((await apiFailure(listInvoices({ clientId: 'nope' }))).status).toBe(400);

    // Payable: financed and amount > paid_amount.
    const payable = await listPayableInvoices();
    expect(payable.total).toBe(await sqlCount(`status = 'financed' AND amount > paid_amount`));
    expect(payable.items.map((item) => item.id)).toContain(made[7]);
    expect(payable.items.filter((item) => made.includes(item.id)).map((item) => item.id)).toEqual([made[7]]);
    await execute(`UPDATE invoices SET paid_amount = amount - 0.01 WHERE id = :id`, { id: made[7] });
    expect((await listPayableInvoices()).items.find((item) => item.id === made[7])).toMatchObject({ openAmount: 0.01 });
    await execute(`UPDATE invoices SET paid_amount = amount WHERE id = :id`, { id: made[7] });
    expect((await listPayableInvoices()).items.map((item) => item.id)).not.toContain(made[7]);
    expect((await listPayableInvoices()).total).toBe(await sqlCount(`status = 'financed' AND amount > paid_amount`));
  });
});
