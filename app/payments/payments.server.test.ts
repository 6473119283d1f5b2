import { describe, expect, it } from 'vitest';
import { activityRows, apiFailure, invalidInput, jsonRequest, signedInCookie } from '../auth/test-helpers.server.ts';
import { execute, selectOne, selectRows } from '../db.server.ts';
import { action as confirmAction } from '../routes/api.payments.$id.confirm.ts';
import { action as paymentsAction, loader as paymentsLoader } from '../routes/api.payments.ts';
import { centsToDecimalString, toCents } from '../utils/money.ts';
import { confirmPayment, failPayment, refundPayment } from './payment-transitions.server.ts';
import { listPayments, paymentSummary, paymentTabCounts } from './payment-queries.server.ts';
import { recordPayment } from './payment-recording.server.ts';
import { book, financeableClient, financedInvoice, financingParties, insertCustomer } from '../../tests/factories.ts';

const usedCredit = async (clientId: string) => (await selectOne<{ used_credit: string }>('SELECT used_credit FROM clients WHERE id = :id', { id: clientId }))!.used_credit;

describe('payments: recording, confirming, settling', () => {
  it('settles an invoice paid in two part-payments: paid, used credit back, the fee on the actual days, reserve = amount − advance − fee − VAT to the cent', async () => {
    const b = await book();
    const client = await financeableClient({ usedCredit: '1234.56' });
    const customer = await insertCustomer();
    const before = await usedCredit(client.id);
    const invoice = await financedInvoice(b, { clientId: client.id, customerId: customer.id, amount: '10000.01' });
    expect(invoice.status).toBe('financed');
    expect(toCents(await usedCredit(client.id))).toBe(toCents(before) + toCents(invoice.factor_amount));

    const first = await recordPayment({ actor: b.user, input: { invoiceId: invoice.id, amount: '4000.00', reference: 'HR00 1' }, ip: '10.0.0.1' });
    expect(first).toMatchObject({ status: 'pending', amount: 4000, paymentMethod: 'bank_transfer', invoiceNumber: invoice.invoice_number });
    await confirmPayment({ actor: b.manager, id: first.id, ip: '10.0.0.2' });
    let row = (await selectOne<{ status: string; paid_amount: string; paid_at: Date | null }>('SELECT status, paid_amount, paid_at FROM invoices WHERE id = :id', {
      id: invoice.id,
    }))!;
    expect(row).toMatchObject({ status: 'financed', paid_amount: '4000.00', paid_at: null });
    // A part-payment stays confirmed and is listed with what is paid so far.
    const listed = (await listPayments({ tab: 'confirmed', q: invoice.invoice_number })).items;
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ status: 'confirmed', invoicePaidAmount: 4000, invoiceAmount: 10000.01 });
    expect(await selectRows(`SELECT 1 FROM payouts WHERE invoice_id = :id AND kind = 'reserve_release'`, { id: invoice.id })).toHaveLength(0);

    // Recording more than is still expected is refused with the figure.
    const tooMuch = await apiFailure(recordPayment({ actor: b.user, input: { invoiceId: invoice.id, amount: '6000.02' } }));
    expect(tooMuch.status).toBe(409);
    expect(tooMuch.body.message).toContain('6000.01');

    const second = await recordPayment({ actor: b.user, input: { invoiceId: invoice.id, amount: 6000.01, paymentMethod: 'card' } });
    const confirmed = await confirmPayment({ actor: b.manager2, id: second.id });
    expect(confirmed).toMatchObject({ status: 'confirmed', invoiceStatus: 'paid', invoicePaidAmount: 10000.01 });
    expect(confirmed.processedAt).not.toBeNull();

    row = (await selectOne('SELECT status, paid_amount, paid_at FROM invoices WHERE id = :id', { id: invoice.id }))!;
    expect(row.status).toBe('paid');
    expect(row.paid_amount).toBe('10000.01');
    expect(row.paid_at).not.toBeNull();
    expect(await usedCredit(client.id)).toBe(before);

    const reserve = await selectRows<{ id: string; amount: string; iban: string; status: string; client_id: string }>(
      `SELECT id, amount, iban, status, client_id FROM payouts WHERE invoice_id = :id AND kind = 'reserve_release'`,
      { id: invoice.id },
    );
    // 10000.01 at 80 % → 8000.01 advance; financing charged 1.5 % per started 30 days to the due date (2 periods for
    // 40 days) → 300.00 + 25 % VAT 75.00. Paid in full on the financing day, nothing was open at the start of the first
    // period, so the fee earned is 0 (docs/money.md#fees-that-follow-time): a credit note for 300.00 and its 75.00 VAT,
    // and the reserve is the whole amount less the advance.
    expect(invoice.factor_amount).toBe('8000.01');
    expect(invoice.factor_fee).toBe('300.00');
    const settled = (await selectOne<{ factor_fee: string; factor_fee_vat: string }>('SELECT factor_fee, factor_fee_vat FROM invoices WHERE id = :id', { id: invoice.id }))!;
    expect(settled).toEqual({ factor_fee: '0.00', factor_fee_vat: '0.00' });
    const credit = await selectRows<{ type_code: string; net_amount: string; vat_amount: string }>(
      `SELECT type_code, net_amount, vat_amount FROM outgoing_einvoices WHERE invoice_id = :id AND purpose = 'fee_credit'`,
      { id: invoice.id },
    );
    expect(credit).toEqual([{ type_code: '381', net_amount: '300.00', vat_amount: '75.00' }]);
    const expected = 1_000_001 - 800_001;
    expect(reserve).toEqual([{ id: expect.any(String), amount: centsToDecimalString(expected), iban: client.iban, status: 'pending', client_id: client.id }]);
    expect(reserve[0].amount).toBe('2000.00');
    // The invoice's entries on the client's account balance to zero once the reserve is released.
    const ledger = await selectRows<{ kind: string; amount: string }>('SELECT kind, amount FROM client_ledger WHERE invoice_id = :id ORDER BY entry_number', { id: invoice.id });
    expect(ledger).toEqual([
      { kind: 'advance', amount: '8000.01' },
      { kind: 'fee', amount: '300.00' },
      { kind: 'fee_vat', amount: '75.00' },
      { kind: 'collection', amount: '-4000.00' },
      { kind: 'collection', amount: '-6000.01' },
      { kind: 'fee', amount: '-300.00' },
      { kind: 'fee_vat', amount: '-75.00' },
      { kind: 'reserve_release', amount: '2000.00' },
    ]);

    // Each transition is in the activity log with who did it.
    expect((await activityRows('payment_recorded', first.id))[0]).toMatchObject({ user_id: b.user.id, ip_address: '10.0.0.1' });
    expect((await activityRows('payment_confirmed', first.id))[0]).toMatchObject({ user_id: b.manager.id, ip_address: '10.0.0.2' });
    expect((await activityRows('invoice_paid', invoice.id))[0].details).toMatchObject({ paymentId: second.id, factorAmount: 8000.01 });
    // This invoice's reserve, released once (other tests of the file release reserves of their own).
    expect(await activityRows('reserve_released', reserve[0].id)).toMatchObject([{ user_id: b.manager2.id }]);

    // The invoice is no longer payable.
    expect((await apiFailure(recordPayment({ actor: b.user, input: { invoiceId: invoice.id, amount: '1.00' } }))).status).toBe(409);
  });

  it('validates the payment form: invoice and amount required, amount to the cent, method from the list', async () => {
    const b = await book();
    const missing = await apiFailure(recordPayment({ actor: b.user, input: invalidInput({}) }));
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toMatchObject({ invoiceId: ['Invoice is required'], amount: ['Amount is required'] });
    const client = await financeableClient();
    const customer = await insertCustomer();
    const invoice = await financedInvoice(b, { clientId: client.id, customerId: customer.id, amount: '500.00' });
    for (const amount of ['1.001', '0', '-5', 'abc']) {
      const failure = await apiFailure(recordPayment({ actor: b.user, input: { invoiceId: invoice.id, amount } }));
      expect(failure.status).toBe(400);
      expect(Object.keys(failure.body.errors ?? {})).toEqual(['amount']);
    }
    const method = await apiFailure(recordPayment({ actor: b.user, input: { invoiceId: invoice.id, amount: '1', paymentMethod: invalidInput('bitcoin') } }));
    expect(method.body.errors).toMatchObject({ paymentMethod: ['Invalid payment method'] });
    const unknown = await apiFailure(recordPayment({ actor: b.user, input: { invoiceId: '00000000-0000-4000-8000-000000000001', amount: '1' } }));
    expect(unknown).toMatchObject({ status: 400, body: { errors: { invoiceId: ['Invoice not found'] } } });
  });

  it('refuses out-of-order transitions (409) and other roles (403), over the API too', async () => {
    const { b, client, customer } = await financingParties();
    const invoice = await financedInvoice(b, { clientId: client.id, customerId: customer.id, amount: '1000.00' });
    const payment = await recordPayment({ actor: b.user, input: { invoiceId: invoice.id, amount: '100.00' } });
    expect((await apiFailure(confirmPayment({ actor: b.user, id: payment.id }))).status).toBe(403);
    expect((await apiFailure(refundPayment({ actor: b.manager, id: payment.id }))).status).toBe(409);

    const managerCookie = await signedInCookie(b.manager.id);
    const userCookie = await signedInCookie(b.user.id);
    const put = (cookie: string) =>
      confirmAction({ request: jsonRequest(`/api/payments/${payment.id}/confirm`, undefined, cookie, 'PUT'), params: { id: payment.id }, context: {} });
    expect((await apiFailure(put(userCookie))).status).toBe(403);
    const ok = (await put(managerCookie)) as Response;
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ id: payment.id, status: 'confirmed', amount: 100 });
    const again = await apiFailure(put(managerCookie));
    expect(again.status).toBe(409);
    expect((await apiFailure(failPayment({ actor: b.manager, id: payment.id }))).status).toBe(409);
    expect((await apiFailure(confirmPayment({ actor: b.manager, id: '00000000-0000-4000-8000-000000000009' }))).status).toBe(404);

    // POST /api/payments: 201 with the spec's fields; list with X-Total-Count and ?status.
    const created = (await paymentsAction({
      request: jsonRequest('/api/payments', { invoiceId: invoice.id, amount: 50.5, paymentMethod: 'cash', reference: 'R1', notes: 'N' }, userCookie),
      params: {},
      context: {},
    })) as Response;
    expect(created.status).toBe(201);
    const body = await created.json();
    for (const field of [
      'id',
      'invoiceNumber',
      'clientName',
      'customerName',
      'amount',
      'currency',
      'paymentMethod',
      'status',
      'dueDate',
      'reference',
      'notes',
      'createdAt',
      'processedAt',
    ]) {
      expect(body).toHaveProperty(field);
    }
    expect(body).toMatchObject({ amount: 50.5, paymentMethod: 'cash', status: 'pending', reference: 'R1', processedAt: null });
    const list = (await paymentsLoader({
      request: new Request('http://localhost/api/payments?status=pending&limit=1', { headers: { Cookie: userCookie } }),
      params: {},
      context: {},
    })) as Response;
    expect(Number(list.headers.get('X-Total-Count'))).toBeGreaterThanOrEqual(1);
    expect(await list.json()).toHaveLength(1);
    const badStatus = await apiFailure(
      paymentsLoader({ request: new Request('http://localhost/api/payments?status=nope', { headers: { Cookie: userCookie } }), params: {}, context: {} }),
    );
    expect(badStatus.status).toBe(400);

    const failed = await failPayment({ actor: b.manager, id: body.id });
    expect(failed.status).toBe('failed');
    expect(await activityRows('payment_failed', body.id)).toHaveLength(1);
  });

  it('refunding the settling payment reverts the settlement; once the reserve is exported it is refused', async () => {
    const b = await book();
    const client = await financeableClient({ usedCredit: '100.00' });
    const customer = await insertCustomer();
    const invoice = await financedInvoice(b, { clientId: client.id, customerId: customer.id, amount: '2000.00' });
    const usedWhileOpen = await usedCredit(client.id);
    const part = await recordPayment({ actor: b.user, input: { invoiceId: invoice.id, amount: '500.00' } });
    await confirmPayment({ actor: b.manager, id: part.id });
    const rest = await recordPayment({ actor: b.user, input: { invoiceId: invoice.id, amount: '1500.00' } });
    await confirmPayment({ actor: b.manager, id: rest.id });
    expect(await usedCredit(client.id)).toBe('100.00');

    const refunded = await refundPayment({ actor: b.manager, id: rest.id });
    expect(refunded).toMatchObject({ status: 'refunded', invoiceStatus: 'financed', invoicePaidAmount: 500 });
    const row = (await selectOne('SELECT status, paid_amount, paid_at FROM invoices WHERE id = :id', { id: invoice.id }))!;
    expect(row).toMatchObject({ status: 'financed', paid_amount: '500.00', paid_at: null });
    // The part-payment still repays 500.00 of the advance.
    expect(toCents(await usedCredit(client.id))).toBe(toCents(usedWhileOpen) - 50_000);
    expect(await selectRows(`SELECT status FROM payouts WHERE invoice_id = :id AND kind = 'reserve_release'`, { id: invoice.id })).toEqual([{ status: 'cancelled' }]);
    expect(await activityRows('invoice_reopened', invoice.id)).toHaveLength(1);
    expect(await activityRows('reserve_cancelled')).toHaveLength(1);

    // Refunding a part-payment only takes its money off.
    await refundPayment({ actor: b.manager, id: part.id });
    expect((await selectOne<{ paid_amount: string }>('SELECT paid_amount FROM invoices WHERE id = :id', { id: invoice.id }))!.paid_amount).toBe('0.00');
    expect(await usedCredit(client.id)).toBe(usedWhileOpen);
    // Every reversal is a new entry: the reserve release and both collections are taken back, nothing rewritten.
    const reversals = await selectRows<{ kind: string; amount: string }>(
      `SELECT kind, amount FROM client_ledger WHERE invoice_id = :id AND (kind = 'reserve_release' OR kind = 'collection') ORDER BY entry_number`,
      { id: invoice.id },
    );
    const sum = (kind: string) => reversals.filter((entry) => entry.kind === kind).reduce((total, entry) => total + toCents(entry.amount), 0);
    expect(sum('collection')).toBe(0);
    expect(sum('reserve_release')).toBe(0);
    expect(reversals.length).toBe(6);

    // Paid again; the new reserve goes into a bank file; a refund is now refused and changes nothing.
    const again = await recordPayment({ actor: b.user, input: { invoiceId: invoice.id, amount: '2000.00' } });
    await confirmPayment({ actor: b.manager, id: again.id });
    await execute(`UPDATE payouts SET status = 'exported', exported_at = now(), export_batch_id = 'T' WHERE invoice_id = :id AND kind = 'reserve_release' AND status = 'pending'`, {
      id: invoice.id,
    });
    const refused = await apiFailure(refundPayment({ actor: b.manager, id: again.id }));
    expect(refused).toMatchObject({ status: 409, body: { message: 'Reserve already paid out' } });
    expect((await selectOne<{ status: string }>('SELECT status FROM invoices WHERE id = :id', { id: invoice.id }))!.status).toBe('paid');
    expect((await selectOne<{ status: string }>('SELECT status FROM payments WHERE id = :id', { id: again.id }))!.status).toBe('confirmed');
  });

  it('computes the summary cards, tab counts and the overdue flag in SQL, equal to independent queries', async () => {
    const { b, client, customer } = await financingParties();
    // Issued 60 days ago, due yesterday: a pending payment on it is overdue.
    const late = await financedInvoice(b, { clientId: client.id, customerId: customer.id, amount: '300.00', issuedDaysAgo: 60, dueInDays: -1 });
    const onTime = await financedInvoice(b, { clientId: client.id, customerId: customer.id, amount: '700.00' });
    const p1 = await recordPayment({ actor: b.user, input: { invoiceId: late.id, amount: '100.00' } });
    const p2 = await recordPayment({ actor: b.user, input: { invoiceId: onTime.id, amount: '200.00' } });
    const p3 = await recordPayment({ actor: b.user, input: { invoiceId: onTime.id, amount: '50.00' } });
    await confirmPayment({ actor: b.manager, id: p2.id });
    await failPayment({ actor: b.manager, id: p3.id });

    const pendingList = (await listPayments({ tab: 'pending' })).items;
    expect(pendingList.find((p) => p.id === p1.id)?.overdue).toBe(true);
    expect((await listPayments({ tab: 'confirmed' })).items.find((p) => p.id === p2.id)?.overdue).toBe(false);

    const summary = await paymentSummary();
    const sql = (await selectOne<Record<string, string>>(`
      SELECT (SELECT coalesce(sum(amount),0)::text FROM payments WHERE status='pending') AS pa,
             (SELECT count(*)::text FROM payments WHERE status='pending') AS pc,
             (SELECT coalesce(sum(amount),0)::text FROM payments WHERE status='confirmed'
                AND to_char(processed_at AT TIME ZONE 'Europe/Zagreb','YYYY-MM') = to_char(now() AT TIME ZONE 'Europe/Zagreb','YYYY-MM')) AS ca,
             (SELECT count(*)::text FROM payments WHERE status='confirmed'
                AND to_char(processed_at AT TIME ZONE 'Europe/Zagreb','YYYY-MM') = to_char(now() AT TIME ZONE 'Europe/Zagreb','YYYY-MM')) AS cc,
             (SELECT coalesce(sum(amount - paid_amount),0)::text FROM invoices WHERE status='financed' AND due_date < (now() AT TIME ZONE 'Europe/Zagreb')::date) AS oa,
             (SELECT count(*)::text FROM invoices WHERE status='financed' AND due_date < (now() AT TIME ZONE 'Europe/Zagreb')::date) AS oc,
             (SELECT coalesce(sum(amount),0)::text FROM payments WHERE status='failed') AS fa,
             (SELECT count(*)::text FROM payments WHERE status='failed') AS fc`))!;
    expect(summary).toEqual({
      pending: { amount: toCents(sql.pa) / 100, count: Number(sql.pc) },
      confirmedThisMonth: { amount: toCents(sql.ca) / 100, count: Number(sql.cc) },
      overdue: { amount: toCents(sql.oa) / 100, count: Number(sql.oc) },
      failed: { amount: toCents(sql.fa) / 100, count: Number(sql.fc) },
    });
    expect(summary.overdue.amount).toBeGreaterThanOrEqual(300);
    expect(summary.confirmedThisMonth.amount).toBeGreaterThanOrEqual(200);

    const counts = await paymentTabCounts({ q: client.name });
    expect(counts).toEqual({ pending: 1, confirmed: 1, failed: 1, refunded: 0, all: 3 });
    expect((await listPayments({ q: client.name, tab: 'all' })).total).toBe(3);
    expect((await listPayments({ q: late.invoice_number })).items.map((p) => p.id)).toEqual([p1.id]);
  });
});
