import { describe, expect, it } from 'vitest';
import { selectOne, selectRows } from '../db.server.ts';
import { financeInvoice } from '../invoices/financing.server.ts';
import { approveInvoice, verifyInvoice } from '../invoices/invoice-decisions.server.ts';
import { ledgerDebtorExposure, ledgerUsedCredit } from '../ledger/ledger.server.ts';
import { statement } from '../ledger/statement.server.ts';
import { statementCsv, statementPdf } from '../ledger/statement-documents.server.ts';
import { centsToDecimalString, toCents } from '../utils/money.ts';
import { confirmPayment } from './payment-transitions.server.ts';
import { recordPayment } from './payment-recording.server.ts';
import { book, createAgreement, financeableClient, insertCustomer, newInvoice, zagrebDay } from '../../tests/factories.ts';
import { atBusinessDay } from '../../tests/support/business-day.ts';
import { pdfText } from '../../tests/support/pdf-text.ts';

/**
 * The fee that follows time, end to end (docs/money.md#the-clients-account): an
 * invoice of 10,000.00 financed on day 0 at 80 % under daily interest of 12 %
 * a year on actual/365 with a 10.00 admin fee, 3,000.00 collected on day 20,
 * the rest on the day it settles. Every figure the test expects is computed
 * here from the terms, not by the code under test.
 */

/** a / b rounded half-up, for non-negative integers (cents × days × percent over the year basis). */
const roundHalfUp = (numerator: number, denominator: number) => Math.floor((2 * numerator + denominator) / (2 * denominator));
/** Interest in cents on advance segments [cents, days] at `percent` a year, actual/365, rounded once. */
const interest = (segments: Array<[number, number]>, percent: number) => roundHalfUp(segments.reduce((sum, [cents, days]) => sum + cents * days, 0) * percent, 100 * 365);
const vatOf = (cents: number) => roundHalfUp(cents * 25, 100);

async function financedOnDay0(dueDay: number) {
  const b = await book();
  const client = await financeableClient({ agreement: false });
  await createAgreement(client.id, { feeModel: 'interest_365', feeRate: '12.0000', adminFee: '10.00', advanceRate: '80.00', maxTenorDays: 90 });
  const customer = await insertCustomer();
  // Day 0 is 45 days ago; the invoice was issued ten days before it.
  const day = (n: number) => zagrebDay(n - 45);
  const invoice = await newInvoice(b.user, client.id, customer.id, { amount: '10000.00', issueDate: day(-10), dueDate: day(dueDay) });
  await verifyInvoice({ actor: b.manager, id: invoice.id });
  await approveInvoice({ actor: b.manager2, id: invoice.id });
  await atBusinessDay(day(0), (transaction) => financeInvoice({ actor: b.manager, id: invoice.id }, { transaction }));
  const pay = async (dayNumber: number, amount: string) => {
    const payment = await recordPayment({ actor: b.user, input: { invoiceId: invoice.id, amount, reference: `HR00 ${dayNumber}` } });
    await atBusinessDay(day(dayNumber), (transaction) => confirmPayment({ actor: b.manager, id: payment.id }, { transaction }));
  };
  return { b, client, customer, invoice, day, pay };
}

const ledgerOf = (invoiceId: string) =>
  selectRows<{ kind: string; amount: string; booked_on: string }>(
    `SELECT kind, amount, to_char(booked_on, 'YYYY-MM-DD') AS booked_on FROM client_ledger WHERE invoice_id = :invoiceId ORDER BY entry_number`,
    { invoiceId },
  );

describe('settlement on the actual days', () => {
  it('financed on day 0, part-paid on day 20, settled on day 45: a completing fee e-invoice, the reserve less fees and VAT, a ledger that balances', async () => {
    const { client, customer, invoice, day, pay } = await financedOnDay0(30);
    const advance = 800_000;
    const chargedFee = interest([[advance, 30]], 12) + 1_000;
    const chargedVat = vatOf(chargedFee);
    expect(chargedFee).toBe(8_890); // 78.90 interest to the due date + 10.00 admin fee
    const financed = (await selectOne<{ factor_amount: string; factor_fee: string; factor_fee_vat: string }>(
      'SELECT factor_amount, factor_fee, factor_fee_vat FROM invoices WHERE id = :id',
      { id: invoice.id },
    ))!;
    expect(financed).toEqual({ factor_amount: '8000.00', factor_fee: centsToDecimalString(chargedFee), factor_fee_vat: centsToDecimalString(chargedVat) });

    await pay(20, '3000.00');
    // The collection repays the advance first: used credit and the debtor's exposure fall by it at once.
    expect(await ledgerUsedCredit(client.id)).toBe(advance - 300_000);
    expect(await ledgerDebtorExposure(customer.id)).toBe(advance - 300_000);
    await pay(45, '7000.00');

    const finalFee =
      interest(
        [
          [advance, 20],
          [advance - 300_000, 25],
        ],
        12,
      ) + 1_000;
    expect(finalFee).toBe(10_370); // (8,000 × 20 + 5,000 × 25) × 12 % / 365 = 93.70, + 10.00
    const completion = finalFee - chargedFee;
    const completionVat = vatOf(completion);
    const reserve = 1_000_000 - advance - finalFee - chargedVat - completionVat;
    expect(reserve).toBe(187_037);

    const documents = await selectRows<{ purpose: string; type_code: string; net_amount: string; vat_amount: string; preceding: string | null }>(
      `SELECT e.purpose, e.type_code, e.net_amount, e.vat_amount, p.number AS preceding
         FROM outgoing_einvoices e LEFT JOIN outgoing_einvoices p ON p.id = e.preceding_id
        WHERE e.invoice_id = :id ORDER BY e.created_at`,
      { id: invoice.id },
    );
    expect(documents.map(({ preceding, ...rest }) => ({ ...rest, refersToFirst: preceding !== null }))).toEqual([
      { purpose: 'financing_fee', type_code: '380', net_amount: centsToDecimalString(chargedFee), vat_amount: centsToDecimalString(chargedVat), refersToFirst: false },
      { purpose: 'fee_completion', type_code: '380', net_amount: centsToDecimalString(completion), vat_amount: centsToDecimalString(completionVat), refersToFirst: true },
    ]);

    expect(await ledgerOf(invoice.id)).toEqual([
      { kind: 'advance', amount: '8000.00', booked_on: day(0) },
      { kind: 'fee', amount: centsToDecimalString(chargedFee), booked_on: day(0) },
      { kind: 'fee_vat', amount: centsToDecimalString(chargedVat), booked_on: day(0) },
      { kind: 'collection', amount: '-3000.00', booked_on: day(20) },
      { kind: 'collection', amount: '-7000.00', booked_on: day(45) },
      { kind: 'fee', amount: centsToDecimalString(completion), booked_on: day(45) },
      { kind: 'fee_vat', amount: centsToDecimalString(completionVat), booked_on: day(45) },
      { kind: 'reserve_release', amount: centsToDecimalString(reserve), booked_on: day(45) },
    ]);
    const payout = await selectRows<{ amount: string; status: string }>(`SELECT amount, status FROM payouts WHERE invoice_id = :id AND kind = 'reserve_release'`, {
      id: invoice.id,
    });
    expect(payout).toEqual([{ amount: '1870.37', status: 'pending' }]);
    expect((await selectOne<{ factor_fee: string }>('SELECT factor_fee FROM invoices WHERE id = :id', { id: invoice.id }))!.factor_fee).toBe('103.70');
    expect(await ledgerUsedCredit(client.id)).toBe(0);
    expect((await selectOne<{ used_credit: string }>('SELECT used_credit FROM clients WHERE id = :id', { id: client.id }))!.used_credit).toBe('0.00');
    expect((await selectOne<{ used_credit: string }>('SELECT used_credit FROM customers WHERE id = :id', { id: customer.id }))!.used_credit).toBe('0.00');

    // The statement of the period balances in both formats: brought forward (nothing) + movements = closing = 0.
    const period = await statement(client.id, day(0), day(45));
    expect(period.broughtForward).toBe(0);
    expect(period.movements).toHaveLength(8);
    expect(period.closing).toBe(0);
    expect(toCents(period.totalDebit) - toCents(period.totalCredit)).toBe(0);
    // The CSV read back as a spreadsheet would: header, brought forward, the movements, the totals and closing balance.
    const records = statementCsv(period)
      .replace(/^\uFEFF/, '')
      .split('\r\n')
      .filter(Boolean)
      .map((line) => line.split(';'));
    const cents = (cell: string) => (cell === '' ? 0 : toCents(cell.replace(',', '.')));
    const movements = records.slice(2, -1);
    expect(movements).toHaveLength(8);
    const closing = records.at(-1)!;
    expect(cents(records[1][5]) + movements.reduce((sum, record) => sum + cents(record[3]) - cents(record[4]), 0)).toBe(cents(closing[5]));
    expect(closing[5]).toBe('0,00');
    expect(movements.at(-1)![5]).toBe('0,00');
    const pdf = await pdfText(await statementPdf(period));
    expect(pdf).toContain('1.870,37');
    expect(pdf).toContain('14,80');
  });

  it('paid in full on day 10 of a 60-day invoice: a credit note for the fee not earned, and a larger reserve', async () => {
    const { client, invoice, pay } = await financedOnDay0(60);
    const advance = 800_000;
    const chargedFee = interest([[advance, 60]], 12) + 1_000;
    await pay(10, '10000.00');
    const finalFee = interest([[advance, 10]], 12) + 1_000;
    const credit = chargedFee - finalFee;
    const creditVat = vatOf(credit);
    const reserve = 1_000_000 - advance - finalFee - (vatOf(chargedFee) - creditVat);
    const documents = await selectRows<{ purpose: string; type_code: string; net_amount: string; vat_amount: string }>(
      `SELECT purpose, type_code, net_amount, vat_amount FROM outgoing_einvoices WHERE invoice_id = :id AND purpose <> 'financing_fee'`,
      { id: invoice.id },
    );
    expect(documents).toEqual([{ purpose: 'fee_credit', type_code: '381', net_amount: centsToDecimalString(credit), vat_amount: centsToDecimalString(creditVat) }]);
    const [release] = await selectRows<{ amount: string }>(`SELECT amount FROM payouts WHERE invoice_id = :id AND kind = 'reserve_release'`, { id: invoice.id });
    expect(toCents(release.amount)).toBe(reserve);
    const balance = (await selectOne<{ balance: string }>('SELECT sum(amount) AS balance FROM client_ledger WHERE invoice_id = :id', { id: invoice.id }))!.balance;
    expect(balance).toBe('0.00');
    expect(await ledgerUsedCredit(client.id)).toBe(0);
  });
});
