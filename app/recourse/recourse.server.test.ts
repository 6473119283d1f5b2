import { describe, expect, it } from 'vitest';
import { selectOne, selectRows } from '../db.server.ts';
import { financeInvoice } from '../invoices/financing.server.ts';
import { approveInvoice, verifyInvoice } from '../invoices/invoice-decisions.server.ts';
import { invoiceLedgerBalance, ledgerDebtorExposure, ledgerUsedCredit } from '../ledger/ledger.server.ts';
import { statement } from '../ledger/statement.server.ts';
import { confirmPayment } from '../payments/payment-transitions.server.ts';
import { recordPayment } from '../payments/payment-recording.server.ts';
import { activityRows, apiFailure } from '../auth/test-helpers.server.ts';
import { chargeBackDueInvoices, chargeBackInvoice } from './recourse.server.ts';
import { financedFees } from '../invoices/page.server.ts';
import { book, createAgreement, financeableClient, financedInvoice, financingParties, insertCustomer, newInvoice, staff, zagrebDay } from '../../tests/factories.ts';
import { atBusinessDay } from '../../tests/support/business-day.ts';
import { cents, kindSums, roundHalfUp } from '../../tests/support/ledger-figures.ts';

/**
 * Recourse chargeback (docs/money.md#recourse-and-write-off): the figures the
 * test expects are computed here from the agreement's terms, not by the code
 * under test.
 */

/** Interest in cents on advance segments [cents, days] at `percent` a year, actual/365, rounded once. */
const interest = (segments: Array<[number, number]>, percent: number) => roundHalfUp(segments.reduce((sum, [cents, days]) => sum + cents * days, 0) * percent, 100 * 365);
const vatOf = (cents: number) => roundHalfUp(cents * 25, 100);

const usedCredit = async (table: 'clients' | 'customers', id: string) =>
  cents((await selectOne<{ used: string }>(`SELECT used_credit AS used FROM ${table} WHERE id = :id`, { id }))!.used);

/** 10,000.00 financed on day 0 at 80 %, 12 % actual/365 with a 10.00 admin fee, due on day 30, recourse 30 days. */
async function recourseInvoice() {
  const b = await book();
  const client = await financeableClient({ agreement: false });
  await createAgreement(client.id, { feeModel: 'interest_365', feeRate: '12.0000', adminFee: '10.00', advanceRate: '80.00', maxTenorDays: 90, recourseDays: 30 });
  const customer = await insertCustomer();
  const day = (n: number) => zagrebDay(n - 120);
  const invoice = await newInvoice(b.user, client.id, customer.id, { amount: '10000.00', issueDate: day(-10), dueDate: day(30) });
  await verifyInvoice({ actor: b.manager, id: invoice.id });
  await approveInvoice({ actor: b.manager2, id: invoice.id });
  await atBusinessDay(day(0), (transaction) => financeInvoice({ actor: b.manager, id: invoice.id }, { transaction }));
  const pay = async (dayNumber: number, amount: string) => {
    await atBusinessDay(day(dayNumber), async (transaction) => {
      const payment = await recordPayment({ actor: b.user, input: { invoiceId: invoice.id, amount, reference: `HR00 ${dayNumber}` } }, { transaction });
      await confirmPayment({ actor: b.manager, id: payment.id }, { transaction });
    });
  };
  return { b, client, customer, invoice, day, pay };
}

describe('the recourse chargeback by the daily job', () => {
  it('charges back on the first day after the recourse period, settles the fee on the actual days, releases used credit, and credits a later collection back', async () => {
    const { client, customer, invoice, day, pay } = await recourseInvoice();
    const advance = 800_000;
    const invoicedFee = interest([[advance, 30]], 12) + 1_000;
    await pay(20, '2000.00');
    expect(await ledgerUsedCredit(client.id)).toBe(advance - 200_000);

    // Day 60 is the last day of the recourse period: nothing happens.
    expect((await atBusinessDay(day(60), (transaction) => chargeBackDueInvoices({ transaction }))).chargedBack).toEqual([]);
    expect((await selectOne<{ status: string }>('SELECT status FROM invoices WHERE id = :id', { id: invoice.id }))!.status).toBe('financed');

    const run = await atBusinessDay(day(61), (transaction) => chargeBackDueInvoices({ transaction }));
    expect(run.chargedBack).toEqual([invoice.id]);
    const finalFee =
      interest(
        [
          [advance, 20],
          [advance - 200_000, 41],
        ],
        12,
      ) + 1_000;
    const vat = vatOf(invoicedFee) + vatOf(finalFee - invoicedFee);
    // The example of docs/money.md#recourse-and-write-off.
    expect([invoicedFee, finalFee, vat]).toEqual([8_890, 14_348, 3_588]);
    const outstanding = advance - 200_000;
    expect(await kindSums(invoice.id)).toEqual({
      advance: advance - outstanding,
      fee: finalFee,
      fee_vat: vat,
      collection: -200_000,
      chargeback: outstanding,
    });
    // What the client now owes on it: the outstanding advance and the fees with their VAT.
    expect(await invoiceLedgerBalance(invoice.id)).toBe(outstanding + finalFee + vat);
    expect(outstanding + finalFee + vat).toBe(617_936);
    expect(await ledgerUsedCredit(client.id)).toBe(0);
    expect(await usedCredit('clients', client.id)).toBe(0);
    expect(await ledgerDebtorExposure(customer.id)).toBe(0);
    expect(await usedCredit('customers', customer.id)).toBe(0);

    const row = (await selectOne<{ status: string; charged_back_by: string | null; factor_fee: string }>(
      'SELECT status, charged_back_by, factor_fee FROM invoices WHERE id = :id',
      { id: invoice.id },
    ))!;
    expect(row).toEqual({ status: 'charged_back', charged_back_by: null, factor_fee: (finalFee / 100).toFixed(2) });
    const completing = await selectRows<{ type_code: string; net_amount: string }>(
      `SELECT type_code, net_amount FROM outgoing_einvoices WHERE invoice_id = :id AND purpose = 'fee_completion'`,
      { id: invoice.id },
    );
    expect(completing.map((document) => [document.type_code, cents(document.net_amount)])).toEqual([['380', finalFee - invoicedFee]]);
    const tasks = await selectRows<{ type: string; status: string }>(`SELECT type, status FROM tasks WHERE entity_type = 'invoice' AND entity_id = :id`, { id: invoice.id });
    expect(tasks).toEqual([{ type: 'manual_review', status: 'pending' }]);
    const [logged] = await activityRows('invoice_charged_back', invoice.id);
    expect(logged.details).toMatchObject({ automatic: true, toStatus: 'charged_back', advanceChargedBack: outstanding / 100 });

    // A rerun the next day changes nothing.
    expect((await atBusinessDay(day(62), (transaction) => chargeBackDueInvoices({ transaction }))).chargedBack).toEqual([]);
    expect(await kindSums(invoice.id)).toMatchObject({ chargeback: outstanding });

    // The debtor pays 3,000.00 later: the collection is credited to the client, the invoice stays charged back.
    await pay(75, '3000.00');
    expect(await kindSums(invoice.id)).toMatchObject({ collection: -500_000, chargeback: outstanding });
    expect(await invoiceLedgerBalance(invoice.id)).toBe(outstanding + finalFee + vat - 300_000);
    const after = (await selectOne<{ status: string; paid_amount: string; paid_at: Date | null }>('SELECT status, paid_amount, paid_at FROM invoices WHERE id = :id', {
      id: invoice.id,
    }))!;
    expect(after).toEqual({ status: 'charged_back', paid_amount: '5000.00', paid_at: null });
    expect(await ledgerUsedCredit(client.id)).toBe(0);
    expect(await usedCredit('clients', client.id)).toBe(0);
    expect(await usedCredit('customers', customer.id)).toBe(0);
    // No reserve is paid out on a charged-back invoice.
    expect(await selectRows(`SELECT id FROM payouts WHERE invoice_id = :id AND kind = 'reserve_release'`, { id: invoice.id })).toEqual([]);

    // The statement of the whole period balances to the cent: brought forward + movements = closing = the ledger's sum.
    const account = await statement(client.id, day(-1), day(80));
    const movements = account.movements.reduce((sum, entry) => sum + Math.round((entry.debit ?? 0) * 100) - Math.round((entry.credit ?? 0) * 100), 0);
    expect(Math.round(account.broughtForward * 100) + movements).toBe(Math.round(account.closing * 100));
    expect(Math.round(account.closing * 100)).toBe(advance + finalFee + vat - 500_000);
    expect(account.movements.filter((entry) => entry.kind === 'chargeback').map((entry) => entry.debit)).toEqual([outstanding / 100]);
  });
});

describe('a manager charging back early', () => {
  it('charges back a financed recourse invoice with a reason; refuses a second time, a non-recourse invoice, one not financed, no reason and a user', async () => {
    const { b, client, customer } = await financingParties();
    const invoice = await financedInvoice(b, { clientId: client.id, customerId: customer.id, amount: '5000.00' });
    const user = await staff('user');
    const entries = async () => (await selectRows('SELECT id FROM client_ledger WHERE invoice_id = :id', { id: invoice.id })).length;
    const before = await entries();

    expect((await apiFailure(chargeBackInvoice({ actor: user, id: invoice.id, input: { reason: 'x' } }))).status).toBe(403);
    const blank = await apiFailure(chargeBackInvoice({ actor: b.manager, id: invoice.id, input: { reason: '  ' } }));
    expect(blank.status).toBe(400);
    expect(await entries()).toBe(before);

    const done = await chargeBackInvoice({ actor: b.manager, id: invoice.id, input: { reason: 'Dužnik u stečaju' }, ip: '10.0.0.9' });
    expect(done.status).toBe('charged_back');
    // The invoice page's fee panel: the fee stopped on the day of the chargeback, settled for one started period
    // (financed and charged back today, 1.5 % of 5,000.00), which is what is now charged.
    expect(await financedFees(done)).toMatchObject({ feeCharged: 75, feeAccrued: 75, accruedUntil: zagrebDay(0) });
    expect(await usedCredit('clients', client.id)).toBe(0);
    const [logged] = await activityRows('invoice_charged_back', invoice.id);
    expect(logged).toMatchObject({ user_id: b.manager.id, ip_address: '10.0.0.9', details: { automatic: false, reason: 'Dužnik u stečaju' } });
    const booked = await entries();

    const again = await apiFailure(chargeBackInvoice({ actor: b.manager2, id: invoice.id, input: { reason: 'opet' } }));
    expect([again.status, again.body.message]).toEqual([409, `Invoice ${invoice.invoice_number} is already charged back`]);
    expect(await entries()).toBe(booked);

    const nonRecourseClient = await financeableClient({ agreement: { recourseDays: null } });
    const nonRecourse = await financedInvoice(b, { clientId: nonRecourseClient.id, customerId: customer.id, amount: '1000.00' });
    const refused = await apiFailure(chargeBackInvoice({ actor: b.manager, id: nonRecourse.id, input: { reason: 'x' } }));
    expect([refused.status, refused.body.message]).toEqual([409, `Invoice ${nonRecourse.invoice_number} is financed without recourse; it cannot be charged back`]);

    const pending = await newInvoice(b.user, client.id, customer.id);
    expect((await apiFailure(chargeBackInvoice({ actor: b.manager, id: pending.id, input: { reason: 'x' } }))).status).toBe(409);
    expect((await apiFailure(chargeBackInvoice({ actor: b.manager, id: '00000000-0000-4000-8000-000000000000', input: { reason: 'x' } }))).status).toBe(404);
  });

  it('charges back once when the daily job and a manager do it at the same moment', async () => {
    const { b, client, customer } = await financingParties();
    // Due 61 days ago under the factories' 60 recourse days: the job's too.
    const invoice = await financedInvoice(b, { clientId: client.id, customerId: customer.id, amount: '4000.00', dueInDays: -61, issuedDaysAgo: 70 });
    const [job, manual] = await Promise.allSettled([chargeBackDueInvoices(), chargeBackInvoice({ actor: b.manager, id: invoice.id, input: { reason: 'Istodobno' } })]);
    expect(job.status).toBe('fulfilled');
    const byJob = job.status === 'fulfilled' && job.value.chargedBack.includes(invoice.id);
    if (byJob) expect(manual.status === 'rejected' && manual.reason instanceof Response && manual.reason.status).toBe(409);
    else expect(manual.status).toBe('fulfilled');
    expect(await selectRows(`SELECT id FROM client_ledger WHERE invoice_id = :id AND kind = 'chargeback'`, { id: invoice.id })).toHaveLength(1);
    expect(await activityRows('invoice_charged_back', invoice.id)).toHaveLength(1);
    expect(await selectRows(`SELECT id FROM tasks WHERE entity_id = :id AND type = 'manual_review'`, { id: invoice.id })).toHaveLength(1);
    expect(await ledgerUsedCredit(client.id)).toBe(0);
    expect(await usedCredit('clients', client.id)).toBe(0);
  });
});
