import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { activityRows, apiFailure, createTestUser, getRequest, jsonRequest, signedInCookie } from '../auth/test-helpers.server.ts';
import { execute, selectOne, selectRows } from '../db.server.ts';
import { approveKyc } from '../onboarding/test-fixtures.server.ts';
import { action as importAction } from '../routes/api.invoices.import.ts';
import { loader as payableLoader } from '../routes/api.invoices.payable.ts';
import { action as invoicesAction, loader as invoicesLoader } from '../routes/api.invoices.ts';
import { loader as detailLoader } from '../routes/api.invoices.$invoiceId.ts';
import { action as verifyAction } from '../routes/api.invoices.$invoiceId.verify.ts';
import { action as rejectAction } from '../routes/api.invoices.$invoiceId.reject.ts';
import { croatianIban, oibCheckDigit } from '../utils/validation.ts';
import { approveInvoice, rejectInvoice, verifyInvoice } from './invoice-decisions.server.ts';
import { createInvoice } from './invoice-create.server.ts';
import { financeInvoice } from './financing.server.ts';
import { getInvoiceDetail, invoiceTabCounts, listInvoices, listPayableInvoices } from './invoice-queries.server.ts';
import { importUblInvoice } from './ubl-import.server.ts';

const FIXTURE = fs.readFileSync(new URL('../einvoices/fixtures/valid-invoice.xml', import.meta.url), 'utf8');
const SELLER_OIB = '47120589305';
const BUYER_OIB = '88204135760';
const IBAN = croatianIban('2360000', '1102345678');

type Role = 'user' | 'manager' | 'admin' | 'super_admin';
const actorOf = (row: { id: string; role: Role }) => ({ id: row.id, role: row.role });
async function staff(role: Role) {
  return actorOf(await createTestUser({ role }));
}

let serial = 2_000_000_000;
function newOib(): string {
  const base = String(serial++);
  return `${base}${oibCheckDigit(base)}`;
}

async function insertClient(values: { oib?: string; creditLimit?: string | null; advanceRate?: string; feeRate?: string; iban?: string | null; name?: string } = {}) {
  const { rows } = await execute<{ id: string }>(
    `INSERT INTO clients (company_name, oib, iban, credit_limit, advance_rate, fee_rate, status)
     VALUES (:name, :oib, :iban, :creditLimit, :advanceRate, :feeRate, 'active') RETURNING id`,
    {
      name: values.name ?? `Klijent ${serial} d.o.o.`,
      oib: values.oib ?? newOib(),
      iban: values.iban === undefined ? IBAN : values.iban,
      creditLimit: values.creditLimit === undefined ? '100000.00' : values.creditLimit,
      advanceRate: values.advanceRate ?? '80.00',
      feeRate: values.feeRate ?? '1.500',
    },
  );
  // Financing needs the client's KYC approved.
  await approveKyc(rows[0].id);
  return rows[0].id;
}

async function insertCustomer(values: { oib?: string; blocked?: boolean; name?: string } = {}) {
  const { rows } = await execute<{ id: string }>(
    `INSERT INTO customers (company_name, oib, account_blocked, blockage_reason)
     VALUES (:name, :oib, :blocked, CASE WHEN :blocked THEN 'FINA: blokada računa' END) RETURNING id`,
    { name: values.name ?? `Kupac ${serial} d.d.`, oib: values.oib ?? newOib(), blocked: values.blocked ?? false },
  );
  return rows[0].id;
}

/** The fixture's seller becomes this test's client: an earlier test's client with that OIB gets another OIB. */
async function sellerClient(values: Parameters<typeof insertClient>[0] = {}) {
  await execute('UPDATE clients SET oib = :oib WHERE oib = :seller', { oib: newOib(), seller: SELLER_OIB });
  await execute('UPDATE customers SET oib = :oib WHERE oib = :buyer', { oib: newOib(), buyer: BUYER_OIB });
  return insertClient({ ...values, oib: SELLER_OIB });
}

/** 'YYYY-MM-DD' of today in Croatia, plus `days`, computed here without the code under test. */
function zagrebDay(days = 0): string {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Zagreb', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
  const ms = Date.parse(`${today}T00:00:00Z`) + days * 86_400_000;
  return new Date(ms).toISOString().slice(0, 10);
}

/** Half-up rounding of an exact integer ratio (independent of app/utils/money.ts). */
function roundRatio(numerator: bigint, denominator: bigint): number {
  return Number((numerator * 2n + denominator) / (2n * denominator));
}

let numberSerial = 1;
async function newInvoice(
  actor: { id: string; role: Role },
  clientId: string,
  customerId: string,
  overrides: Partial<{ amount: number | string; issueDate: string; dueDate: string; invoiceNumber: string; description: string }> = {},
) {
  return createInvoice({
    actor,
    ip: '10.1.1.1',
    input: {
      clientId,
      customerId,
      invoiceNumber: overrides.invoiceNumber ?? `${numberSerial++}/1/1`,
      issueDate: overrides.issueDate ?? zagrebDay(-5),
      dueDate: overrides.dueDate ?? zagrebDay(55),
      amount: overrides.amount ?? 1000,
      description: overrides.description ?? 'Isporuka robe',
    },
  });
}

/** Everything a refused operation must leave as it was. */
async function snapshot(invoiceId: string, clientId: string) {
  return {
    invoice: await selectOne('SELECT * FROM invoices WHERE id = :invoiceId', { invoiceId }),
    client: await selectOne('SELECT * FROM clients WHERE id = :clientId', { clientId }),
    payouts: await selectRows('SELECT * FROM payouts WHERE invoice_id = :invoiceId', { invoiceId }),
    activity: (await selectOne<{ n: number }>('SELECT count(*)::int AS n FROM activity_logs'))!.n,
  };
}

async function storedCounts() {
  return selectOne(
    `SELECT (SELECT count(*)::int FROM invoices) AS invoices, (SELECT count(*)::int FROM invoice_lines) AS lines,
            (SELECT count(*)::int FROM documents) AS documents, (SELECT count(*)::int FROM customers) AS customers,
            (SELECT count(*)::int FROM activity_logs) AS activity`,
  );
}

describe('from an uploaded e-invoice to financing', () => {
  it('imports, verifies (manager A), approves and finances (manager B) with exact advance, fee and used credit', async () => {
    const user = await staff('user');
    const managerA = await staff('manager');
    const managerB = await staff('manager');
    const clientId = await sellerClient({ creditLimit: '50000.00', advanceRate: '85.00', feeRate: '1.750' });
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
    const clientId = await insertClient({ creditLimit: options.creditLimit, iban: options.iban });
    const customerId = await insertCustomer();
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
    const clientId = await insertClient();
    const customerId = await insertCustomer({ blocked: true });
    const invoice = await newInvoice(await staff('user'), clientId, customerId);
    const before = await snapshot(invoice.id, clientId);
    const failure = await apiFailure(verifyInvoice({ actor: await staff('manager'), id: invoice.id }));
    expect(failure).toMatchObject({ status: 409, body: { message: expect.stringMatching(/blocked account .*cannot verify/) } });
    expect(await snapshot(invoice.id, clientId)).toEqual(before);
  });

  it('approving one’s own verification is 403 (four eyes)', async () => {
    const clientId = await insertClient();
    const invoice = await newInvoice(await staff('user'), clientId, await insertCustomer());
    const manager = await staff('manager');
    await verifyInvoice({ actor: manager, id: invoice.id });
    const before = await snapshot(invoice.id, clientId);
    const failure = await apiFailure(approveInvoice({ actor: manager, id: invoice.id }));
    expect(failure).toMatchObject({ status: 403, body: { message: 'Four eyes: the manager who verified this invoice cannot also approve it' } });
    expect(await snapshot(invoice.id, clientId)).toEqual(before);
  });

  it('a user (not a manager) may not verify, approve, finance or reject', async () => {
    const user = await staff('user');
    const clientId = await insertClient();
    const invoice = await newInvoice(user, clientId, await insertCustomer());
    for (const run of [verifyInvoice, approveInvoice, financeInvoice]) {
      expect((await apiFailure(run({ actor: user, id: invoice.id }))).status).toBe(403);
    }
    expect((await apiFailure(rejectInvoice({ actor: user, id: invoice.id, input: { reason: 'x' } }))).status).toBe(403);
  });

  it('every transition the state does not allow is 409 and changes nothing', async () => {
    const creator = await staff('user');
    const a = await staff('manager');
    const b = await staff('manager');
    const clientId = await insertClient();
    const customerId = await insertCustomer();
    const make = async (status: 'pending' | 'verified' | 'approved' | 'financed' | 'rejected') => {
      const invoice = await newInvoice(creator, clientId, customerId, { amount: 100 + numberSerial });
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
    const clientId = await insertClient({ creditLimit: '12000.00' });
    const customerId = await insertCustomer();
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
    const clientId = await insertClient();
    const invoice = await newInvoice(await staff('user'), clientId, await insertCustomer());
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

describe('the duplicate rule of verification', () => {
  it('(a) the same client, customer, amount and issue date under another number is a duplicate', async () => {
    const user = await staff('user');
    const manager = await staff('manager');
    const clientId = await insertClient();
    const customerId = await insertCustomer();
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
    const customerId = await insertCustomer();
    const firstClient = await insertClient({ name: 'Prvi d.o.o.' });
    const financed = await newInvoice(user, firstClient, customerId, { invoiceNumber: '15/1/1', amount: 700 });
    await verifyInvoice({ actor: a, id: financed.id });
    await approveInvoice({ actor: b, id: financed.id });
    await financeInvoice({ actor: b, id: financed.id });
    const secondClient = await insertClient({ name: 'Drugi d.o.o.' });
    const again = await newInvoice(user, secondClient, customerId, { invoiceNumber: ' 15/1/1', amount: 700, issueDate: zagrebDay(-20) });
    const failure = await apiFailure(verifyInvoice({ actor: a, id: again.id }));
    expect(failure).toMatchObject({ status: 409, body: { message: 'Duplicate invoice: number 15/1/1 for this customer and amount is already financed for Prvi d.o.o.' } });
    // The same number for another amount is another seller's invoice: not a duplicate.
    const other = await newInvoice(user, secondClient, customerId, { invoiceNumber: '15/1/1-b', amount: 701 });
    expect((await verifyInvoice({ actor: a, id: other.id })).status).toBe('verified');
  });
});

describe('creating an invoice', () => {
  it('stores it pending with invoice_created and refuses unknown parties, duplicates, bad dates and amounts', async () => {
    const user = await staff('user');
    const clientId = await insertClient();
    const customerId = await insertCustomer();
    const invoice = await newInvoice(user, clientId, customerId, { invoiceNumber: 'A-1', amount: '1234.5' });
    expect(invoice).toMatchObject({ status: 'pending', amount: 1234.5, currency: 'EUR', clientId, customerId, source: 'manual' });
    const [log] = await activityRows('invoice_created', invoice.id);
    expect(log).toMatchObject({ user_id: user.id, ip_address: '10.1.1.1', details: { invoiceNumber: 'A-1', amount: 1234.5, fromStatus: null, toStatus: 'pending' } });

    const unknown = '00000000-0000-4000-8000-0000000000aa';
    expect((await apiFailure(newInvoice(user, unknown, customerId))).body).toEqual({ message: 'Client not found', errors: { clientId: ['Client not found'] } });
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
    const clientId = await insertClient();
    const customerId = await insertCustomer();
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

describe('importing e-invoices: refusals store nothing', () => {
  async function setup() {
    const user = await staff('user');
    const clientId = await sellerClient();
    return { user, clientId };
  }
  const cases: Array<[string, (xml: string) => string, RegExp]> = [
    ['malformed XML', (xml) => xml.replace('</cbc:ID>', '</cbc:Id>'), /^Malformed XML at line \d+, column \d+/],
    [
      'an external entity',
      (xml) => xml.replace('<Invoice ', '<!DOCTYPE Invoice [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n<Invoice ').replace('<cbc:Note>', '<cbc:Note>&xxe;'),
      /^XML with a DOCTYPE\/entities is not accepted$/,
    ],
    ['totals that do not add up', (xml) => xml.replace('<cbc:PayableAmount currencyID="EUR">8136.94<', '<cbc:PayableAmount currencyID="EUR">9136.94<'), /^BR-CO-16: /],
    ['a seller that is not the client', (xml) => xml.replaceAll(SELLER_OIB, '11111111119'), /^HR-CIUS seller OIB: Seller OIB 11111111119 is not the client's OIB 47120589305/],
  ];

  it.each(cases)('%s', async (_name, breakIt, message) => {
    const { user, clientId } = await setup();
    const before = await storedCounts();
    const failure = await apiFailure(importUblInvoice({ actor: user, clientId, xml: breakIt(FIXTURE), createCustomer: true }));
    expect(failure.status).toBe(400);
    expect(failure.body.message).toMatch(message);
    expect(await storedCounts()).toEqual(before);
  });

  it('a new buyer without createCustomer is 409 with the proposal; with it the customer is created', async () => {
    const { user, clientId } = await setup();
    const before = await storedCounts();
    const failure = await apiFailure(importUblInvoice({ actor: user, clientId, xml: FIXTURE }));
    expect(failure.status).toBe(409);
    expect(failure.body).toMatchObject({ proposedCustomer: { companyName: 'Trgovina Jadran d.d.', oib: BUYER_OIB, city: 'Zadar' } });
    expect(await storedCounts()).toEqual(before);
    const existing = await insertCustomer({ oib: BUYER_OIB, name: 'Jadran d.d.' });
    const imported = await importUblInvoice({ actor: user, clientId, xml: FIXTURE });
    expect(imported).toMatchObject({ customerId: existing, customerName: 'Jadran d.d.', customerCreated: false });
    // The same e-invoice twice: its number is taken for the client.
    const again = await apiFailure(importUblInvoice({ actor: user, clientId, xml: FIXTURE }));
    expect(again).toMatchObject({ status: 409, body: { errors: { invoiceNumber: ['An invoice with this number already exists for this client'] } } });
  });
});

describe('lists, tab counts and the payable list', () => {
  it('agree with independent SQL counts, with and without a search', async () => {
    const user = await staff('user');
    const a = await staff('manager');
    const b = await staff('manager');
    const clientId = await insertClient();
    const otherClient = await insertClient();
    const customerId = await insertCustomer();
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
    });
    expect(await invoiceTabCounts({ q: 'PRIJEVOZ' })).toEqual({
      all: await sqlCount(`description ILIKE '%prijevoz%'`),
      pending: await sqlCount(`description ILIKE '%prijevoz%' AND status = 'pending'`),
      verified: await sqlCount(`description ILIKE '%prijevoz%' AND status = 'verified'`),
      approved: await sqlCount(`description ILIKE '%prijevoz%' AND status = 'approved'`),
      rejected: await sqlCount(`description ILIKE '%prijevoz%' AND status = 'rejected'`),
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

describe('the /api/invoices routes', () => {
  const ctx = (request: Request, params: Record<string, string> = {}) => ({ request, params, context: { clientIp: '127.0.0.1' } });

  it('POST creates (201), GET lists with X-Total-Count, GET /{id} details, PUT verify needs a manager', async () => {
    const user = await createTestUser();
    const cookie = await signedInCookie(user.id);
    const clientId = await insertClient();
    const customerId = await insertCustomer();
    const created = await invoicesAction(
      ctx(jsonRequest('/api/invoices', { clientId, customerId, invoiceNumber: 'API-1', issueDate: '2026-11-01', dueDate: '2026-12-15', amount: 2500.5, description: 'Roba' }, cookie)),
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
    const clientId = await sellerClient();
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
