import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { activityRows, apiFailure } from '../auth/test-helpers.server.ts';
import { execute, selectOne, selectRows } from '../db.server.ts';
import { financeInvoice } from '../invoices/financing.server.ts';
import { approveInvoice, verifyInvoice } from '../invoices/invoice-decisions.server.ts';
import { importUblInvoice } from '../invoices/ubl-import.server.ts';
import { ledgerDebtorExposure, ledgerUsedCredit } from '../ledger/ledger.server.ts';
import { confirmPayment } from '../payments/payment-transitions.server.ts';
import { recordPayment } from '../payments/payment-recording.server.ts';
import { toCents } from '../utils/money.ts';
import { addCreditNote, listCreditNotes } from './credit-notes.server.ts';
import { resolveDispute } from './disputes.server.ts';
import { dilutionOf } from './rate.server.ts';
import { book, financeableClient, financingParties, insertCustomer, newInvoice, newOib, zagrebDay, type Book } from '../../tests/factories.ts';
import { atBusinessDay } from '../../tests/support/business-day.ts';
import { describeFailures, validateOfficially } from '../../tests/support/official-einvoice-rules.ts';

/**
 * Dilution end to end (docs/collections.md#dilution-and-disputes-resolved,
 * docs/money.md#dilution). Every invoice is 10,000.00, advanced at 80 %
 * (8,000.00) under a discount of 1.5 % per started 30 days, financed 40 days
 * ago and due 5 days from now: 300.00 of fee (two periods) and 75.00 of VAT
 * at financing. Every figure the tests expect is computed here from those
 * terms, never read from the code under test.
 */
const CREDIT_NOTE = fs.readFileSync(new URL('../einvoices/fixtures/official-structure-credit-note.xml', import.meta.url), 'utf8');

const AMOUNT = 1_000_000;
const ADVANCE = 800_000;
const FEE = 30_000;
const VAT = 7_500;
/** 1.5 % of a base in cents, half-up. */
const discount = (base: number) => Math.floor((base * 15 + 500) / 1000);

async function financed40DaysAgo(b: Book, options: { client?: { id: string; oib: string }; customer?: { id: string; oib: string } } = {}) {
  const client = options.client ?? (await financeableClient());
  const customer = options.customer ?? (await insertCustomer());
  const invoice = await newInvoice(b.user, client.id, customer.id, { amount: '10000.00', issueDate: zagrebDay(-45), dueDate: zagrebDay(5) });
  await verifyInvoice({ actor: b.manager, id: invoice.id });
  await approveInvoice({ actor: b.manager2, id: invoice.id });
  await atBusinessDay(zagrebDay(-40), (transaction) => financeInvoice({ actor: b.manager, id: invoice.id }, { transaction }));
  return { client, customer, invoice };
}

const balanceOf = async (clientId: string) =>
  toCents((await selectOne<{ sum: string | null }>('SELECT sum(amount) AS sum FROM client_ledger WHERE client_id = :clientId', { clientId }))!.sum ?? '0');
const usedCreditOf = async (table: 'clients' | 'customers', id: string) =>
  toCents((await selectOne<{ used_credit: string }>(`SELECT used_credit FROM ${table} WHERE id = :id`, { id }))!.used_credit);
const invoiceRow = (id: string) =>
  selectOne<{ status: string; paid_amount: string; credited_amount: string; disputed: boolean; dispute_reason: string | null }>(
    'SELECT status, paid_amount, credited_amount, disputed, dispute_reason FROM invoices WHERE id = :id',
    { id },
  );
const entriesOf = (invoiceId: string, kinds: string[]) =>
  selectRows<{ kind: string; amount: string; description: string }>(
    'SELECT kind, amount, description FROM client_ledger WHERE invoice_id = :invoiceId AND kind IN (:kinds) ORDER BY entry_number',
    { invoiceId, kinds },
  );

async function pay(b: Book, invoiceId: string, amount: string, day?: string) {
  const payment = await recordPayment({ actor: b.user, input: { invoiceId, amount, paymentMethod: 'bank_transfer' } });
  if (day) await atBusinessDay(day, (transaction) => confirmPayment({ actor: b.manager, id: payment.id }, { transaction }));
  else await confirmPayment({ actor: b.manager, id: payment.id });
}

/** The fixture, adapted to a purchased invoice of the test: its number and date, the client as seller, the debtor as buyer. */
function creditNoteFor(invoice: { invoiceNumber: string; issueDate: string }, parties: { sellerOib: string; buyerOib: string }, number = 'ODB-2026-17') {
  return CREDIT_NOTE.replaceAll('{{number}}', number)
    .replaceAll('{{issueDate}}', zagrebDay(0))
    .replaceAll('{{invoiceNumber}}', invoice.invoiceNumber)
    .replaceAll('{{invoiceIssueDate}}', invoice.issueDate)
    .replaceAll('{{sellerOib}}', parties.sellerOib)
    .replaceAll('{{buyerOib}}', parties.buyerOib);
}

describe('a UBL CreditNote through the e-invoice intake', () => {
  it('the official rules accept it; it dilutes the purchased invoice, charges the excess advance back, and the account balances to the cent', async () => {
    const b = await book();
    const { client, customer, invoice } = await financed40DaysAgo(b, { client: await financeableClient({ oib: newOib() }) });
    const xml = creditNoteFor(invoice, { sellerOib: client.oib, buyerOib: customer.oib });
    const [verdict] = validateOfficially([{ name: 'credit note', xml }]);
    expect(describeFailures([verdict])).toEqual([]);
    expect(verdict.valid).toBe(true);

    const balanceBefore = await balanceOf(client.id);
    expect(balanceBefore).toBe(ADVANCE + FEE + VAT);
    const imported = await importUblInvoice({ actor: b.manager, clientId: client.id, xml, fileName: 'odobrenje.xml', ip: '10.0.0.7' });
    expect(imported).toMatchObject({
      id: invoice.id,
      status: 'financed',
      creditedAmount: 2500,
      creditNote: { number: 'ODB-2026-17', amount: 2500, source: 'ubl', chargebackAmount: 500 },
    });
    const stored = await selectOne<{ name: string; entity_id: string }>('SELECT name, entity_id FROM documents WHERE id = :id', { id: imported.creditNote!.documentId });
    expect(stored).toEqual({ name: 'e-Odobrenje ODB-2026-17.xml', entity_id: invoice.id });

    // What the debtor owes fell to 7,500.00, below the 8,000.00 advance: 500.00 is the client's, at once.
    const owed = AMOUNT - 250_000;
    const excess = ADVANCE - owed;
    expect(await entriesOf(invoice.id, ['chargeback', 'advance'])).toEqual([
      { kind: 'advance', amount: '8000.00', description: invoice.invoiceNumber },
      { kind: 'chargeback', amount: '500.00', description: 'Odobrenje ODB-2026-17: višak predujma' },
      { kind: 'advance', amount: '-500.00', description: 'Odobrenje ODB-2026-17: višak predujma' },
    ]);
    expect(excess).toBe(50_000);
    // Used credit and the debtor's exposure fall by the excess; the balance does not move (the advance was already owed).
    expect(await usedCreditOf('clients', client.id)).toBe(ADVANCE - excess);
    expect(await usedCreditOf('customers', customer.id)).toBe(ADVANCE - excess);
    expect(await ledgerUsedCredit(client.id)).toBe(ADVANCE - excess);
    expect(await ledgerDebtorExposure(customer.id)).toBe(ADVANCE - excess);
    expect(await balanceOf(client.id)).toBe(balanceBefore);
    // A payment may now cover only what is owed.
    const over = await apiFailure(recordPayment({ actor: b.user, input: { invoiceId: invoice.id, amount: '7500.01', paymentMethod: 'bank_transfer' } }));
    expect(over.status).toBe(409);

    // The debtor pays the rest today (day 40): settled; the fee on the actual days is the one charged (two periods on 10,000.00).
    await pay(b, invoice.id, '7500.00');
    expect(await invoiceRow(invoice.id)).toMatchObject({ status: 'paid', paid_amount: '7500.00', credited_amount: '2500.00' });
    const finalFee = discount(AMOUNT) + discount(AMOUNT);
    expect(finalFee).toBe(FEE);
    // Reserve = amount − credit notes − advance − fees − VAT = −875.00: nothing paid out, the client owes 875.00.
    const reserve = AMOUNT - 250_000 - ADVANCE - finalFee - VAT;
    expect(reserve).toBe(-87_500);
    expect(await selectRows(`SELECT id FROM payouts WHERE invoice_id = :id AND kind = 'reserve_release'`, { id: invoice.id })).toEqual([]);
    expect(await balanceOf(client.id)).toBe(ADVANCE + FEE + VAT - owed);
    expect(await balanceOf(client.id)).toBe(-reserve);
    expect(await usedCreditOf('clients', client.id)).toBe(0);
    expect(await ledgerUsedCredit(client.id)).toBe(0);

    // The same document again: the number is taken on that invoice (and it is paid now), nothing changes.
    const again = await apiFailure(importUblInvoice({ actor: b.manager, clientId: client.id, xml, fileName: 'odobrenje.xml' }));
    expect(again.status).toBe(409);
    expect((await listCreditNotes(invoice.id)).total).toBe(1);
  });

  it('refuses, changing nothing: an invoice unknown for that client, another debtor, a user without the right, an amount above what is left', async () => {
    const b = await book();
    const { client, customer, invoice } = await financed40DaysAgo(b, { client: await financeableClient({ oib: newOib() }) });
    const stranger = await insertCustomer();
    const unknown = await apiFailure(
      importUblInvoice({ actor: b.manager, clientId: client.id, xml: creditNoteFor({ ...invoice, invoiceNumber: 'NEMA-1' }, { sellerOib: client.oib, buyerOib: customer.oib }) }),
    );
    expect(unknown).toMatchObject({ status: 409, body: { message: expect.stringContaining('NEMA-1') } });
    const otherDebtor = await apiFailure(
      importUblInvoice({ actor: b.manager, clientId: client.id, xml: creditNoteFor(invoice, { sellerOib: client.oib, buyerOib: stranger.oib }) }),
    );
    expect(otherDebtor.status).toBe(409);
    const notSeller = await apiFailure(importUblInvoice({ actor: b.manager, clientId: client.id, xml: creditNoteFor(invoice, { sellerOib: newOib(), buyerOib: customer.oib }) }));
    expect(notSeller.status).toBe(400);
    const user = await apiFailure(importUblInvoice({ actor: b.user, clientId: client.id, xml: creditNoteFor(invoice, { sellerOib: client.oib, buyerOib: customer.oib }) }));
    expect(user.status).toBe(403);
    // 9,000.00 paid: 1,000.00 is left, the credit note asks 2,500.00.
    await pay(b, invoice.id, '9000.00');
    const above = await apiFailure(importUblInvoice({ actor: b.manager, clientId: client.id, xml: creditNoteFor(invoice, { sellerOib: client.oib, buyerOib: customer.oib }) }));
    expect(above).toMatchObject({ status: 409, body: { message: expect.stringContaining('1000.00 EUR') } });
    expect(await invoiceRow(invoice.id)).toMatchObject({ credited_amount: '0.00' });
    expect(await selectRows(`SELECT id FROM documents WHERE entity_id = :id AND name LIKE 'e-Odobrenje%'`, { id: invoice.id })).toEqual([]);
  });
});

describe('a credit note entered by hand', () => {
  it('that covers the rest settles the invoice as a final payment: the fee on the actual days, its credit note, the reserve net of fees', async () => {
    const b = await book();
    const { client, invoice } = await financed40DaysAgo(b);
    // 9,000.00 collected on day 20 repays the advance; the credit note of 1,000.00 today leaves nothing owed.
    await pay(b, invoice.id, '9000.00', zagrebDay(-20));
    const note = await addCreditNote({
      actor: b.manager,
      invoiceId: invoice.id,
      input: { number: 'ODB-7', issueDate: zagrebDay(-1), amount: '1000.00', reason: 'Popust zbog kašnjenja isporuke' },
      ip: '10.0.0.8',
    });
    expect(note).toMatchObject({ number: 'ODB-7', amount: 1000, source: 'manual', chargebackAmount: 0, bookedOn: zagrebDay(0) });
    expect(await invoiceRow(invoice.id)).toMatchObject({ status: 'paid', paid_amount: '9000.00', credited_amount: '1000.00' });
    // Period 1 (days 0–29) on 10,000.00; period 2 (from day 30) on 10,000.00 − 9,000.00 collected on day 20 (the credit note is from day 40).
    const finalFee = discount(AMOUNT) + discount(AMOUNT - 900_000);
    expect(finalFee).toBe(16_500);
    const vat = Math.floor((finalFee * 25 + 50) / 100);
    expect(vat).toBe(4_125);
    const reserve = AMOUNT - 100_000 - ADVANCE - finalFee - vat;
    expect(reserve).toBe(79_375);
    const payout = await selectOne<{ amount: string; status: string }>(`SELECT amount, status FROM payouts WHERE invoice_id = :id AND kind = 'reserve_release'`, {
      id: invoice.id,
    });
    expect(payout).toEqual({ amount: '793.75', status: 'pending' });
    // The fee charged at financing (300.00) less the final one: credited by a fee credit note with its VAT.
    expect(await entriesOf(invoice.id, ['fee', 'fee_vat'])).toEqual([
      { kind: 'fee', amount: '300.00', description: expect.any(String) },
      { kind: 'fee_vat', amount: '75.00', description: expect.any(String) },
      { kind: 'fee', amount: '-135.00', description: expect.stringMatching(/^FF-/) },
      { kind: 'fee_vat', amount: '-33.75', description: expect.stringMatching(/^FF-/) },
    ]);
    // The invoice's entries sum to zero once the reserve is released.
    const sum = await selectOne<{ sum: string }>('SELECT sum(amount) AS sum FROM client_ledger WHERE invoice_id = :id', { id: invoice.id });
    expect(sum).toEqual({ sum: '0.00' });
    expect(await ledgerUsedCredit(client.id)).toBe(0);
    const [logged] = await activityRows('credit_note_recorded', invoice.id);
    expect(logged).toMatchObject({
      user_id: b.manager.id,
      ip_address: '10.0.0.8',
      details: { number: 'ODB-7', owedBefore: 1000, owedAfter: 0, chargeback: 0, settlesInvoice: true },
    });
    const [paid] = await activityRows('invoice_paid', invoice.id);
    expect(paid.details).toMatchObject({ creditNoteId: note.id, paymentId: null, finalFee: 165, reserve: 793.75 });
  });

  it('refuses bad input and wrong states, changing nothing; two managers crediting at once cannot credit more than is open', async () => {
    const b = await book();
    const { invoice } = await financed40DaysAgo(b);
    const input = { number: 'ODB-1', issueDate: zagrebDay(0), amount: '100.00', reason: 'Povrat' };
    expect((await apiFailure(addCreditNote({ actor: b.user, invoiceId: invoice.id, input }))).status).toBe(403);
    expect((await apiFailure(addCreditNote({ actor: b.manager, invoiceId: invoice.id, input: { ...input, amount: '0' } }))).status).toBe(400);
    expect((await apiFailure(addCreditNote({ actor: b.manager, invoiceId: invoice.id, input: { ...input, issueDate: zagrebDay(1) } }))).status).toBe(400);
    expect((await apiFailure(addCreditNote({ actor: b.manager, invoiceId: invoice.id, input: { ...input, issueDate: zagrebDay(-46) } }))).status).toBe(400);
    expect((await apiFailure(addCreditNote({ actor: b.manager, invoiceId: invoice.id, input: { ...input, amount: '10000.01' } }))).status).toBe(409);
    expect((await apiFailure(addCreditNote({ actor: b.manager, invoiceId: '00000000-0000-4000-8000-000000000000', input }))).status).toBe(404);
    const approved = await newInvoice(b.user, (await financeableClient()).id, (await insertCustomer()).id);
    const notPurchased = await apiFailure(addCreditNote({ actor: b.manager, invoiceId: approved.id, input }));
    expect(notPurchased).toMatchObject({ status: 409, body: { message: expect.stringContaining('not purchased') } });
    expect(await invoiceRow(invoice.id)).toMatchObject({ credited_amount: '0.00' });

    // 10,000.00 open: two credit notes of 6,000.00 at the same moment: one is recorded, the other refused.
    const results = await Promise.allSettled(
      ['ODB-A', 'ODB-B'].map((number) =>
        addCreditNote({ actor: number === 'ODB-A' ? b.manager : b.manager2, invoiceId: invoice.id, input: { ...input, number, amount: '6000.00' } }),
      ),
    );
    expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(await invoiceRow(invoice.id)).toMatchObject({ credited_amount: '6000.00' });
    // 4,000.00 owed, 8,000.00 advanced: the 4,000.00 excess was charged back once.
    expect(await entriesOf(invoice.id, ['chargeback'])).toEqual([{ kind: 'chargeback', amount: '4000.00', description: expect.any(String) }]);
    const duplicate = await apiFailure(
      addCreditNote({ actor: b.manager, invoiceId: invoice.id, input: { ...input, number: (await listCreditNotes(invoice.id)).items[0].number } }),
    );
    expect(duplicate.status).toBe(409);
  });
});

describe('resolving a dispute', () => {
  async function disputed(b: Book, invoiceId: string) {
    const { rows } = await execute<{ id: string }>(
      `INSERT INTO invoice_disputes (invoice_id, reason, source, opened_by) VALUES (:invoiceId, 'Isporučeno 7 od 10 strojeva', 'staff', :by) RETURNING id`,
      { invoiceId, by: b.user.id },
    );
    await execute(`UPDATE invoices SET disputed = true, dispute_reason = 'Isporučeno 7 od 10 strojeva' WHERE id = :invoiceId`, { invoiceId });
    const task = await execute<{ id: string }>(
      `INSERT INTO tasks (title, type, entity_type, entity_id, created_by) VALUES ('Spor dužnika', 'customer_contact', 'invoice', :invoiceId, :by) RETURNING id`,
      { invoiceId, by: b.user.id },
    );
    return { disputeId: rows[0].id, taskId: task.rows[0].id };
  }

  it('reduced to an agreed amount: a credit note for the difference dilutes the invoice like any other, the flag and the task close', async () => {
    const b = await book();
    const { client, customer, invoice } = await financed40DaysAgo(b);
    const { disputeId, taskId } = await disputed(b, invoice.id);
    const balanceBefore = await balanceOf(client.id);
    const resolved = await resolveDispute({
      actor: b.manager,
      invoiceId: invoice.id,
      input: { outcome: 'reduced', agreedAmount: '7000.00', note: 'Dogovoreno 7 strojeva' },
      ip: '10.0.0.9',
    });
    expect(resolved.dispute).toMatchObject({ id: disputeId, outcome: 'reduced', agreedAmount: 7000, resolutionNote: 'Dogovoreno 7 strojeva' });
    expect(resolved.creditNote).toMatchObject({ amount: 3000, source: 'dispute', disputeId, chargebackAmount: 1000 });
    expect(await invoiceRow(invoice.id)).toMatchObject({ status: 'financed', credited_amount: '3000.00', disputed: false, dispute_reason: null });
    // Owed 7,000.00 against 8,000.00 advanced: 1,000.00 charged back; used credit and exposure fall by it; the balance stays.
    expect(await usedCreditOf('clients', client.id)).toBe(ADVANCE - 100_000);
    expect(await ledgerDebtorExposure(customer.id)).toBe(ADVANCE - 100_000);
    expect(await balanceOf(client.id)).toBe(balanceBefore);
    expect(await selectOne('SELECT status FROM tasks WHERE id = :taskId', { taskId })).toEqual({ status: 'completed' });
    expect(await activityRows('dispute_resolved', invoice.id)).toEqual([
      expect.objectContaining({ user_id: b.manager.id, details: expect.objectContaining({ outcome: 'reduced', agreedAmount: 7000, creditNoteAmount: 3000, tasksCompleted: 1 }) }),
    ]);

    // Nothing open any more: 409, nothing changes.
    const again = await apiFailure(resolveDispute({ actor: b.manager, invoiceId: invoice.id, input: { outcome: 'upheld', note: 'x' } }));
    expect(again.status).toBe(409);
    expect(await invoiceRow(invoice.id)).toMatchObject({ credited_amount: '3000.00' });
  });

  it('rejected leaves the invoice as it is; upheld credits all that is open; bad outcomes are refused', async () => {
    const b = await book();
    const { invoice } = await financed40DaysAgo(b);
    await disputed(b, invoice.id);
    expect((await apiFailure(resolveDispute({ actor: b.user, invoiceId: invoice.id, input: { outcome: 'rejected', note: 'Neosnovano' } }))).status).toBe(403);
    expect((await apiFailure(resolveDispute({ actor: b.manager, invoiceId: invoice.id, input: { outcome: 'reduced', note: 'Bez iznosa' } }))).status).toBe(400);
    expect((await apiFailure(resolveDispute({ actor: b.manager, invoiceId: invoice.id, input: { outcome: 'reduced', agreedAmount: '10000.00', note: 'Isto' } }))).status).toBe(409);
    const rejected = await resolveDispute({ actor: b.manager, invoiceId: invoice.id, input: { outcome: 'rejected', note: 'Neosnovano' } });
    expect(rejected).toMatchObject({ dispute: { outcome: 'rejected', agreedAmount: null }, creditNote: null });
    expect(await invoiceRow(invoice.id)).toMatchObject({ credited_amount: '0.00', disputed: false });

    await disputed(b, invoice.id);
    await pay(b, invoice.id, '2000.00');
    const upheld = await resolveDispute({ actor: b.manager, invoiceId: invoice.id, input: { outcome: 'upheld', note: 'Roba vraćena' } });
    expect(upheld.creditNote).toMatchObject({ amount: 8000, chargebackAmount: 600_000 / 100 });
    expect(await invoiceRow(invoice.id)).toMatchObject({ status: 'paid', credited_amount: '8000.00' });
  });

  it('a dispute on an invoice not yet financed can only be rejected', async () => {
    const b = await book();
    const pending = await newInvoice(b.user, (await financeableClient()).id, (await insertCustomer()).id);
    await disputed(b, pending.id);
    const refused = await apiFailure(resolveDispute({ actor: b.manager, invoiceId: pending.id, input: { outcome: 'upheld', note: 'Vraćeno' } }));
    expect(refused.status).toBe(409);
    expect(await invoiceRow(pending.id)).toMatchObject({ disputed: true });
  });
});

describe('the dilution rate', () => {
  it('is the credit notes of the last 12 months ÷ the amount financed in them, per client, per debtor and for the book, to an independent SQL figure', async () => {
    const { b, client, customer } = await financingParties();
    const first = await financed40DaysAgo(b, { client, customer });
    const second = await financed40DaysAgo(b, { client });
    await addCreditNote({ actor: b.manager, invoiceId: first.invoice.id, input: { number: 'ODB-R1', issueDate: zagrebDay(-3), amount: '333.33', reason: 'Povrat' } });
    await addCreditNote({ actor: b.manager, invoiceId: second.invoice.id, input: { number: 'ODB-R2', issueDate: zagrebDay(0), amount: '100.00', reason: 'Popust' } });

    // Independently: the window as "issued within one year back, excluding the day a year ago", rate in numeric.
    const expected = async (where: string, params: Record<string, unknown>) =>
      (await selectOne<{ rate: string | null }>(
        `SELECT round((SELECT coalesce(sum(cn.amount), 0) FROM credit_notes cn JOIN invoices inv ON inv.id = cn.invoice_id
                        WHERE ${where.replaceAll('X.', 'inv.')} AND cn.issue_date BETWEEN (CAST(:today AS date) - interval '1 year')::date + 1 AND CAST(:today AS date))
                     * 100 / nullif((SELECT sum(inv.amount) FROM invoices inv
                        WHERE ${where.replaceAll('X.', 'inv.')} AND (inv.financed_at AT TIME ZONE 'Europe/Zagreb')::date
                              BETWEEN (CAST(:today AS date) - interval '1 year')::date + 1 AND CAST(:today AS date)), 0), 2) AS rate`,
        { ...params, today: zagrebDay(0) },
      ))!.rate;
    const clientRate = await dilutionOf({ kind: 'client', id: client.id });
    expect(clientRate).toMatchObject({ creditNotes: 433.33, financed: 20000, rate: 2.17, to: zagrebDay(0) });
    expect(String(clientRate.rate)).toBe(Number(await expected('X.client_id = :id', { id: client.id })).toString());
    const debtorRate = await dilutionOf({ kind: 'customer', id: customer.id });
    expect(debtorRate).toMatchObject({ creditNotes: 333.33, financed: 10000, rate: 3.33 });
    expect(String(debtorRate.rate)).toBe(Number(await expected('X.customer_id = :id', { id: customer.id })).toString());
    const bookRate = await dilutionOf({ kind: 'book' });
    expect(String(bookRate.rate)).toBe(Number(await expected('true', {})).toString());
    // A year later, today's credit notes and financings have left the window.
    expect(await dilutionOf({ kind: 'client', id: client.id }, { asOf: zagrebDay(400) })).toMatchObject({ creditNotes: 0, financed: 0, rate: null });
  });
});
