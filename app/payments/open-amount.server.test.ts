import { describe, expect, it } from 'vitest';
import { apiFailure, getRequest, signedInCookie } from '../auth/test-helpers.server.ts';
import { execute, selectOne, selectRows } from '../db.server.ts';
import { listPayableInvoices } from '../invoices/invoice-queries.server.ts';
import { loader as payableLoader } from '../routes/api.invoices.payable.ts';
import { confirmPayment, failPayment, refundPayment } from './payment-transitions.server.ts';
import { recordPayment } from './payment-recording.server.ts';
import { financedInvoice, financingParties } from '../../tests/factories.ts';

/**
 * What the payable list offers can be recorded: its openAmount is the amount
 * less the confirmed and the pending payments, invoices with nothing open are
 * not offered, and recording checks the same figure.
 */
const offered = async (id: string) => (await listPayableInvoices({ limit: 1000 })).items.find((item) => item.id === id);

describe('the payable list and a new payment', () => {
  it('counts pending payments: open = amount − confirmed − pending; a fully covered invoice is not offered and cannot be paid again', async () => {
    const { b, client, customer } = await financingParties();
    const invoice = await financedInvoice(b, { clientId: client.id, customerId: customer.id, amount: '1000.00' });
    expect(await offered(invoice.id)).toMatchObject({ amount: 1000, paidAmount: 0, pendingAmount: 0, openAmount: 1000 });

    const first = await recordPayment({ actor: b.user, input: { invoiceId: invoice.id, amount: '400.10', paymentMethod: 'bank_transfer' } });
    expect(await offered(invoice.id)).toMatchObject({ paidAmount: 0, pendingAmount: 400.1, openAmount: 599.9 });
    // One cent more than open is refused with the figure the list showed.
    const over = await apiFailure(recordPayment({ actor: b.user, input: { invoiceId: invoice.id, amount: '599.91', paymentMethod: 'cash' } }));
    expect(over).toMatchObject({ status: 409, body: { errors: { amount: [expect.stringContaining('599.90 EUR')] } } });

    // Exactly what the list offers is accepted; then nothing is open and the invoice leaves the list.
    const second = await recordPayment({ actor: b.user, input: { invoiceId: invoice.id, amount: '599.90', paymentMethod: 'cash' } });
    expect(await offered(invoice.id)).toBeUndefined();
    const again = await apiFailure(recordPayment({ actor: b.user, input: { invoiceId: invoice.id, amount: '0.01', paymentMethod: 'cash' } }));
    expect(again).toMatchObject({ status: 409, body: { errors: { amount: [expect.stringContaining('0.00 EUR')] } } });

    // Confirming moves money from pending to paid: still nothing open. A failed payment opens its amount again.
    await confirmPayment({ actor: b.manager, id: first.id });
    expect(await selectOne(`SELECT paid_amount::text, pending_amount::text FROM invoices WHERE id = :id`, { id: invoice.id })).toEqual({
      paid_amount: '400.10',
      pending_amount: '599.90',
    });
    expect(await offered(invoice.id)).toBeUndefined();
    await failPayment({ actor: b.manager, id: second.id });
    expect(await offered(invoice.id)).toMatchObject({ paidAmount: 400.1, pendingAmount: 0, openAmount: 599.9 });

    // A refund of the confirmed payment opens it again as well.
    await refundPayment({ actor: b.manager, id: first.id });
    expect(await offered(invoice.id)).toMatchObject({ paidAmount: 0, pendingAmount: 0, openAmount: 1000 });
  });

  it('GET /api/invoices/payable: the same figures, and X-Total-Count counts only invoices with something open', async () => {
    const { b, client, customer } = await financingParties();
    const open = await financedInvoice(b, { clientId: client.id, customerId: customer.id, amount: '250.00' });
    const covered = await financedInvoice(b, { clientId: client.id, customerId: customer.id, amount: '300.00' });
    await recordPayment({ actor: b.user, input: { invoiceId: open.id, amount: '50.00', paymentMethod: 'bank_transfer' } });
    await recordPayment({ actor: b.user, input: { invoiceId: covered.id, amount: '300.00', paymentMethod: 'bank_transfer' } });

    const response = await payableLoader({ request: getRequest('/api/invoices/payable?limit=1000', await signedInCookie(b.user.id)), params: {}, context: {} });
    expect(response.status).toBe(200);
    const items = (await response.json()) as Array<{ id: string; openAmount: number }>;
    expect(items.find((item) => item.id === open.id)).toMatchObject({ openAmount: 200 });
    expect(items.map((item) => item.id)).not.toContain(covered.id);
    const independent = await selectOne<{ n: number }>(
      `SELECT count(*)::int AS n FROM invoices i
        WHERE i.status = 'financed'
          AND i.amount > i.paid_amount + (SELECT coalesce(sum(p.amount), 0) FROM payments p WHERE p.invoice_id = i.id AND p.status = 'pending')`,
    );
    expect(Number(response.headers.get('X-Total-Count'))).toBe(independent!.n);
    expect(items).toHaveLength(independent!.n);
  });

  it('keeps pending_amount equal to the sum of pending payments whoever writes them (the triggers on payments)', async () => {
    const { b, client, customer } = await financingParties();
    const invoice = await financedInvoice(b, { clientId: client.id, customerId: customer.id, amount: '900.00' });
    const other = await financedInvoice(b, { clientId: client.id, customerId: customer.id, amount: '901.00' });
    // Rows written directly, several per statement, as the demo seed and the benchmark book do.
    await execute(
      `INSERT INTO payments (invoice_id, amount, status, processed_at) VALUES
         (:a, 100.00, 'pending', NULL), (:a, 50.25, 'pending', NULL), (:a, 70.00, 'confirmed', now()), (:b, 10.00, 'pending', NULL)`,
      { a: invoice.id, b: other.id },
    );
    // One statement moving a payment to another invoice and changing its amount, one deleting.
    await execute(`UPDATE payments SET invoice_id = :b, amount = 20.00 WHERE invoice_id = :a AND amount = 50.25`, { a: invoice.id, b: other.id });
    await execute(`DELETE FROM payments WHERE invoice_id = :b AND amount = 10.00`, { b: other.id });
    const rows = await selectRows<{ id: string; pending: string; expected: string }>(
      `SELECT i.id, i.pending_amount::text AS pending,
              (SELECT coalesce(sum(p.amount), 0) FROM payments p WHERE p.invoice_id = i.id AND p.status = 'pending')::numeric(15,2)::text AS expected
         FROM invoices i WHERE i.id IN (:ids) ORDER BY i.id`,
      { ids: [invoice.id, other.id] },
    );
    expect(rows.map((row) => row.pending)).toEqual(rows.map((row) => row.expected));
    expect(rows.find((row) => row.id === invoice.id)!.pending).toBe('100.00');
    expect(rows.find((row) => row.id === other.id)!.pending).toBe('20.00');
  });

  it('two payments recorded at once for the whole open amount: one is accepted, the other refused (409), never both', async () => {
    const { b, client, customer } = await financingParties();
    const invoice = await financedInvoice(b, { clientId: client.id, customerId: customer.id, amount: '500.00' });
    const results = await Promise.allSettled(
      [0, 1].map(() => recordPayment({ actor: b.user, input: { invoiceId: invoice.id, amount: '500.00', paymentMethod: 'bank_transfer' } })),
    );
    expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refused = results.find((result) => result.status === 'rejected') as PromiseRejectedResult;
    expect((refused.reason as Response).status).toBe(409);
    expect(await selectOne(`SELECT pending_amount::text FROM invoices WHERE id = :id`, { id: invoice.id })).toEqual({ pending_amount: '500.00' });
  });
});
