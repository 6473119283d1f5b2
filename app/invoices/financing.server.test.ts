import { describe, expect, it } from 'vitest';
import { activityRows, apiFailure, refusalIn } from '../auth/test-helpers.server.ts';
import { execute, selectOne, selectRows } from '../db.server.ts';
import { approveInvoice, rejectInvoice, verifyInvoice } from './invoice-decisions.server.ts';
import { financeInvoice } from './financing.server.ts';
import { getInvoiceDetail, listPayableInvoices } from './invoice-queries.server.ts';
import { handleDecision, type DecisionRefusal } from './page.server.ts';
import { importUblInvoice } from './ubl-import.server.ts';
import { BUYER_OIB, FIXTURE, roundRatio, snapshot } from './test-fixtures.server.ts';
import { financeableClient, insertCustomer, newInvoice, sellerClient, staff, zagrebDay } from '../../tests/factories.ts';

describe('from an uploaded e-invoice to financing', () => {
  it('imports, verifies (manager A), approves and finances (manager B) with exact advance, fee and used credit', async () => {
    const user = await staff('user');
    const managerA = await staff('manager');
    const managerB = await staff('manager');
    // The fixture's issue date is fixed (2026-03-02): a tenor the agreement allows whatever today is.
    const { id: clientId, iban: IBAN } = await sellerClient({ creditLimit: '50000.00', advanceRate: '85.00', feeRate: '1.750', agreement: { maxTenorDays: 3650 } });
    await execute(`UPDATE clients SET used_credit = '1234.56' WHERE id = :clientId`, { clientId });
    // 75 days to the due date: three started 30-day periods.
    const dueDate = zagrebDay(75);
    const xml = FIXTURE.replace('<cbc:DueDate>2026-04-16</cbc:DueDate>', `<cbc:DueDate>${dueDate}</cbc:DueDate>`);

    const imported = await importUblInvoice({ actor: user, clientId, xml, fileName: 'racun-142.xml', createCustomer: true, ip: '10.0.0.1' });
    expect(imported).toMatchObject({
      invoiceNumber: 'R-2026-0142/1/1',
      status: 'pending',
      verificationStatus: 'pending',
      amount: 8136.94,
      currency: 'EUR',
      issueDate: '2026-03-02',
      dueDate,
      clientId,
      clientName: expect.any(String),
      customerName: 'Trgovina Jadran d.d.',
      factorAmount: null,
      factorFee: null,
      paidAmount: 0,
      source: 'ubl',
      customerCreated: true,
    });
    const customer = await selectOne<{ id: string; oib: string; city: string }>('SELECT id, oib, city FROM customers WHERE id = :id', { id: imported.customerId });
    expect(customer).toMatchObject({ oib: BUYER_OIB, city: 'Zadar' });
    const stored = await selectOne<{ ubl_document_id: string; mime_type: string; type: string; entity_id: string }>(
      `SELECT i.ubl_document_id, d.mime_type, d.type, d.entity_id FROM invoices i JOIN documents d ON d.id = i.ubl_document_id WHERE i.id = :id`,
      { id: imported.id },
    );
    expect(stored).toMatchObject({ ubl_document_id: imported.documentId, type: 'invoice', entity_id: imported.id });
    expect(stored!.mime_type).toMatch(/xml/);

    // A debtor created by the import has no limit approved yet: financing needs one.
    await execute(`UPDATE customers SET credit_limit = '20000.00' WHERE id = :id`, { id: imported.customerId });
    const verified = await verifyInvoice({ actor: managerA, id: imported.id, ip: '10.0.0.2' });
    expect(verified).toMatchObject({ status: 'verified', verificationStatus: 'verified' });
    const approved = await approveInvoice({ actor: managerB, id: imported.id, ip: '10.0.0.3' });
    expect(approved.status).toBe('approved');
    const financed = await financeInvoice({ actor: managerB, id: imported.id, ip: '10.0.0.3' });

    // Independently: 8136.94 × 85 % = 6916.399 → 6916.40; 8136.94 × 1.75 % × 3 = 427.18935 → 427.19.
    const amount = 813694n;
    const advance = roundRatio(amount * 85n, 100n);
    const fee = roundRatio(amount * 175n * 3n, 100n * 100n);
    expect([advance, fee]).toEqual([691640, 42719]);
    expect(financed).toMatchObject({ status: 'financed', factorAmount: 6916.4, factorFee: 427.19 });

    const client = await selectOne<{ used_credit: string }>('SELECT used_credit FROM clients WHERE id = :clientId', { clientId });
    expect(client!.used_credit).toBe('8150.96'); // 1234.56 + 6916.40
    const payouts = await selectRows<{ kind: string; amount: string; iban: string; status: string; created_by: string }>(
      'SELECT kind, amount, iban, status, created_by FROM payouts WHERE invoice_id = :id',
      { id: imported.id },
    );
    expect(payouts).toEqual([{ kind: 'advance', amount: '6916.40', iban: IBAN, status: 'pending', created_by: managerB.id }]);
    const row = await selectOne('SELECT factor_amount, factor_fee, verified_by, approved_by, financed_by FROM invoices WHERE id = :id', { id: imported.id });
    expect(row).toEqual({ factor_amount: '6916.40', factor_fee: '427.19', verified_by: managerA.id, approved_by: managerB.id, financed_by: managerB.id });

    const [log] = await activityRows('invoice_financed', imported.id);
    expect(log).toMatchObject({
      user_id: managerB.id,
      ip_address: '10.0.0.3',
      details: {
        fromStatus: 'approved',
        toStatus: 'financed',
        factorAmount: 6916.4,
        factorFee: 427.19,
        feePeriods: 3,
        days: 75,
        usedCreditBefore: 1234.56,
        usedCreditAfter: 8150.96,
        creditLimit: 50000,
      },
    });

    const detail = await getInvoiceDetail(imported.id);
    expect(detail.history.map((entry) => [entry.action, entry.userId])).toEqual([
      ['invoice_created', user.id],
      ['invoice_verified', managerA.id],
      ['invoice_approved', managerB.id],
      ['invoice_financed', managerB.id],
    ]);
    expect(detail.lines).toHaveLength(3);
    expect(detail.lines[0]).toMatchObject({ lineNumber: 1, quantity: '12.5000', unitCode: 'MTQ', netAmount: 6000, vatRate: 25, kpdCode: '16.11.12' });
    expect(detail.documents.map((doc) => doc.id)).toEqual([imported.documentId]);
    expect(detail.payouts).toEqual([expect.objectContaining({ kind: 'advance', amount: 6916.4, iban: IBAN })]);
    expect(detail.client).toMatchObject({ id: clientId, usedCredit: 8150.96, advanceRate: 85, feeRate: 1.75 });

    const payable = await listPayableInvoices();
    expect(payable.items.find((item) => item.id === imported.id)).toEqual(
      expect.objectContaining({ id: imported.id, invoiceNumber: 'R-2026-0142/1/1', customerName: 'Trgovina Jadran d.d.', amount: 8136.94, currency: 'EUR', openAmount: 8136.94 }),
    );
  });
});

describe('refusals change nothing', () => {
  async function approvedInvoice(options: { creditLimit?: string | null; amount?: number; blocked?: boolean; iban?: string | null } = {}) {
    const creator = await staff('user');
    const verifier = await staff('manager');
    const approver = await staff('manager');
    const { id: clientId } = await financeableClient({ creditLimit: options.creditLimit, iban: options.iban });
    const { id: customerId } = await insertCustomer();
    const invoice = await newInvoice(creator, clientId, customerId, { amount: options.amount ?? 10000 });
    await verifyInvoice({ actor: verifier, id: invoice.id });
    await approveInvoice({ actor: approver, id: invoice.id });
    if (options.blocked) await execute(`UPDATE customers SET account_blocked = true, blockage_reason = 'FINA' WHERE id = :customerId`, { customerId });
    return { invoice, clientId, customerId, verifier, approver };
  }

  it('financing past the credit limit is 409 naming the limit', async () => {
    // 80 % of 10000.00 = 8000.00 > 7999.99.
    const { invoice, clientId, approver } = await approvedInvoice({ creditLimit: '7999.99' });
    const before = await snapshot(invoice.id, clientId);
    const failure = await apiFailure(financeInvoice({ actor: approver, id: invoice.id }));
    expect(failure.status).toBe(409);
    expect(failure.body.message).toBe('Credit limit exceeded: used credit 0.00 + advance 8000.00 > limit 7999.99 EUR');
    expect(await snapshot(invoice.id, clientId)).toEqual(before);
    // Exactly at the limit is allowed.
    await execute(`UPDATE clients SET credit_limit = '8000.00' WHERE id = :clientId`, { clientId });
    expect((await financeInvoice({ actor: approver, id: invoice.id })).factorAmount).toBe(8000);
  });

  it('a client without a credit limit or without an IBAN cannot be financed', async () => {
    const noLimit = await approvedInvoice({ creditLimit: null });
    const before = await snapshot(noLimit.invoice.id, noLimit.clientId);
    const failure = await apiFailure(financeInvoice({ actor: noLimit.approver, id: noLimit.invoice.id }));
    expect(failure).toMatchObject({ status: 409, body: { message: expect.stringMatching(/has no credit limit; financing is not possible$/) } });
    expect(await snapshot(noLimit.invoice.id, noLimit.clientId)).toEqual(before);

    const noIban = await approvedInvoice({ iban: null });
    const failure2 = await apiFailure(financeInvoice({ actor: noIban.approver, id: noIban.invoice.id }));
    expect(failure2).toMatchObject({ status: 409, body: { message: expect.stringMatching(/has no IBAN for the advance payout$/) } });
  });

  it('financing for a blocked customer is 409 naming the blockage', async () => {
    const { invoice, clientId, approver } = await approvedInvoice({ blocked: true });
    const before = await snapshot(invoice.id, clientId);
    const failure = await apiFailure(financeInvoice({ actor: approver, id: invoice.id }));
    expect(failure.status).toBe(409);
    expect(failure.body.message).toMatch(/has a blocked account \(FINA\); cannot finance the invoice$/);
    expect(await snapshot(invoice.id, clientId)).toEqual(before);
  });

  it('verifying for a blocked customer is 409', async () => {
    const { id: clientId } = await financeableClient();
    const { id: customerId } = await insertCustomer({ blocked: true });
    const invoice = await newInvoice(await staff('user'), clientId, customerId);
    const before = await snapshot(invoice.id, clientId);
    const failure = await apiFailure(verifyInvoice({ actor: await staff('manager'), id: invoice.id }));
    expect(failure).toMatchObject({ status: 409, body: { message: expect.stringMatching(/blocked account .*cannot verify/) } });
    expect(await snapshot(invoice.id, clientId)).toEqual(before);
  });

  it('approving one’s own verification is 403 (four eyes)', async () => {
    const { id: clientId } = await financeableClient();
    const invoice = await newInvoice(await staff('user'), clientId, (await insertCustomer()).id);
    const manager = await staff('manager');
    await verifyInvoice({ actor: manager, id: invoice.id });
    const before = await snapshot(invoice.id, clientId);
    const failure = await apiFailure(approveInvoice({ actor: manager, id: invoice.id }));
    expect(failure).toMatchObject({ status: 403, body: { message: 'Four eyes: the manager who verified this invoice cannot also approve it' } });
    expect(await snapshot(invoice.id, clientId)).toEqual(before);
  });

  it('a user (not a manager) may not verify, approve, finance or reject', async () => {
    const user = await staff('user');
    const { id: clientId } = await financeableClient();
    const invoice = await newInvoice(user, clientId, (await insertCustomer()).id);
    for (const run of [verifyInvoice, approveInvoice, financeInvoice]) {
      expect((await apiFailure(run({ actor: user, id: invoice.id }))).status).toBe(403);
    }
    expect((await apiFailure(rejectInvoice({ actor: user, id: invoice.id, input: { reason: 'x' } }))).status).toBe(403);
  });

  it('every transition the state does not allow is 409 and changes nothing', async () => {
    const creator = await staff('user');
    const a = await staff('manager');
    const b = await staff('manager');
    const { id: clientId } = await financeableClient();
    const { id: customerId } = await insertCustomer();
    // Each invoice of its own amount, so that no two look alike.
    let amount = 100;
    const make = async (status: 'pending' | 'verified' | 'approved' | 'financed' | 'rejected') => {
      const invoice = await newInvoice(creator, clientId, customerId, { amount: (amount += 1) });
      if (status === 'rejected') await rejectInvoice({ actor: a, id: invoice.id, input: { reason: 'Nepotpuna dokumentacija' } });
      if (['verified', 'approved', 'financed'].includes(status)) await verifyInvoice({ actor: a, id: invoice.id });
      if (['approved', 'financed'].includes(status)) await approveInvoice({ actor: b, id: invoice.id });
      if (status === 'financed') await financeInvoice({ actor: b, id: invoice.id });
      return invoice.id;
    };
    const operations = {
      verify: (id: string) => verifyInvoice({ actor: b, id }),
      approve: (id: string) => approveInvoice({ actor: b, id }),
      finance: (id: string) => financeInvoice({ actor: b, id }),
      reject: (id: string) => rejectInvoice({ actor: b, id, input: { reason: 'Kasno' } }),
    };
    const notAllowed: Array<[keyof typeof operations, 'pending' | 'verified' | 'approved' | 'financed' | 'rejected']> = [
      ['verify', 'verified'],
      ['verify', 'approved'],
      ['verify', 'financed'],
      ['verify', 'rejected'],
      ['approve', 'pending'],
      ['approve', 'approved'],
      ['approve', 'financed'],
      ['approve', 'rejected'],
      ['finance', 'pending'],
      ['finance', 'verified'],
      ['finance', 'financed'],
      ['finance', 'rejected'],
      ['reject', 'financed'],
      ['reject', 'rejected'],
    ];
    for (const [verb, status] of notAllowed) {
      const id = await make(status);
      const before = await snapshot(id, clientId);
      const failure = await apiFailure(operations[verb](id));
      expect({ verb, status, code: failure.status, message: failure.body.message }).toEqual({
        verb,
        status,
        code: 409,
        message: `Invoice is ${status}; cannot ${verb}`,
      });
      expect(await snapshot(id, clientId)).toEqual(before);
    }
    expect((await apiFailure(verifyInvoice({ actor: a, id: '00000000-0000-4000-8000-00000000dead' }))).status).toBe(404);
  });

  it('of two concurrent financings that together exceed the limit, exactly one succeeds', async () => {
    const creator = await staff('user');
    const a = await staff('manager');
    const b = await staff('manager');
    // Each advance is 8000.00; the limit holds one but not two.
    const { id: clientId } = await financeableClient({ creditLimit: '12000.00' });
    const { id: customerId } = await insertCustomer();
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) {
      const invoice = await newInvoice(creator, clientId, customerId, { amount: 10000, issueDate: zagrebDay(-i - 1) });
      await verifyInvoice({ actor: a, id: invoice.id });
      await approveInvoice({ actor: b, id: invoice.id });
      ids.push(invoice.id);
    }
    const results = await Promise.allSettled(ids.map((id) => financeInvoice({ actor: b, id })));
    const fulfilled = results.filter((result) => result.status === 'fulfilled');
    const rejected = results.filter((result): result is PromiseRejectedResult => result.status === 'rejected');
    expect(fulfilled).toHaveLength(1);
    expect(rejected).toHaveLength(1);
    expect((rejected[0].reason as Response).status).toBe(409);
    const client = await selectOne<{ used_credit: string }>('SELECT used_credit FROM clients WHERE id = :clientId', { clientId });
    expect(client!.used_credit).toBe('8000.00');
    expect((await selectOne<{ n: number }>(`SELECT count(*)::int AS n FROM payouts WHERE client_id = :clientId`, { clientId }))!.n).toBe(1);
  });

  it('rejecting needs a reason and records it', async () => {
    const { id: clientId } = await financeableClient();
    const invoice = await newInvoice(await staff('user'), clientId, (await insertCustomer()).id);
    const manager = await staff('manager');
    const failure = await apiFailure(rejectInvoice({ actor: manager, id: invoice.id, input: { reason: '  ' } }));
    expect(failure).toMatchObject({ status: 400, body: { errors: { reason: ['Reason is required'] } } });
    expect((await apiFailure(rejectInvoice({ actor: manager, id: invoice.id, input: { reason: 'x'.repeat(5001) } }))).status).toBe(400);
    const rejected = await rejectInvoice({ actor: manager, id: invoice.id, input: { reason: 'Kupac osporava isporuku' }, ip: '10.2.2.2' });
    expect(rejected.status).toBe('rejected');
    const [log] = await activityRows('invoice_rejected', invoice.id);
    expect(log.details).toMatchObject({ fromStatus: 'pending', toStatus: 'rejected', reason: 'Kupac osporava isporuku' });
    expect((await getInvoiceDetail(invoice.id)).rejectionReason).toBe('Kupac osporava isporuku');
  });
});

describe('a refusal with an enum param (docs/decisions/013-error-codes.md)', () => {
  it('verifying a financed invoice: the API quotes the raw status in English, the page shows the hr labels', async () => {
    const creator = await staff('user');
    const a = await staff('manager');
    const b = await staff('manager');
    const invoice = await newInvoice(creator, (await financeableClient()).id, (await insertCustomer()).id, { amount: 321 });
    await verifyInvoice({ actor: a, id: invoice.id });
    await approveInvoice({ actor: b, id: invoice.id });
    await financeInvoice({ actor: b, id: invoice.id });

    const failure = await apiFailure(verifyInvoice({ actor: a, id: invoice.id }));
    expect(failure.status).toBe(409);
    expect(failure.body).toEqual({ message: 'Invoice is financed; cannot verify', code: 'invoices.refusals.wrongState', params: { status: 'financed', verb: 'verify' } });

    // The page action (the invoice card's verify button) answers the refusal as a code; the card shows it in the reader's language.
    const form = new FormData();
    form.set('intent', 'verify');
    form.set('id', invoice.id);
    const response = await handleDecision(form, { actor: a, ip: null, back: '/invoices' });
    expect(response.status).toBe(409);
    const refusal = (await response.json()) as DecisionRefusal;
    expect(await refusalIn('en', refusal.message)).toBe('Invoice is financed; cannot verify');
    expect(await refusalIn('hr', refusal.message)).toBe('Faktura je u statusu „Financirana”; nije je moguće verificirati');
  });
});
