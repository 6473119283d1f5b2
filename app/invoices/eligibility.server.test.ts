import { describe, expect, it } from 'vitest';
import { apiFailure } from '../auth/test-helpers.server.ts';
import { execute, inTransaction, selectOne, selectRows } from '../db.server.ts';
import { ledgerDebtorExposure, ledgerUsedCredit, postLedgerEntries } from '../ledger/ledger.server.ts';
import { invoiceEligibility } from './eligibility.server.ts';
import { financedFees } from './page.server.ts';
import { ELIGIBILITY_CHECKS } from './eligibility.ts';
import { financeInvoice } from './financing.server.ts';
import { approveInvoice, verifyInvoice } from './invoice-decisions.server.ts';
import { roundRatio, snapshot } from './test-fixtures.server.ts';
import { chargeBackInvoice } from '../recourse/recourse.server.ts';
import {
  book,
  createAgreement,
  financeableClient,
  financedInvoice,
  insertCustomer,
  insertInvoice,
  newInvoice,
  staff,
  zagrebDay,
  type AgreementTerms,
  type ClientValues,
} from '../../tests/factories.ts';

interface Setup {
  client?: ClientValues;
  agreement?: AgreementTerms | false;
  customer?: { creditLimit?: string | null; blocked?: boolean };
  amount?: number;
  issueDate?: string;
  dueDate?: string;
}

/** An approved invoice of a financeable client (signed agreement) on a debtor with a limit, unless told. */
async function approvedInvoice(setup: Setup = {}, parties: { clientId?: string; customerId?: string } = {}) {
  const clientId = parties.clientId ?? (await financeableClient({ ...setup.client, agreement: setup.agreement })).id;
  const customerId = parties.customerId ?? (await insertCustomer(setup.customer ?? {})).id;
  const invoice = await newInvoice(await staff('user'), clientId, customerId, {
    amount: setup.amount ?? 10000,
    issueDate: setup.issueDate ?? zagrebDay(-5),
    dueDate: setup.dueDate ?? zagrebDay(40),
  });
  await verifyInvoice({ actor: await staff('manager'), id: invoice.id });
  const manager = await staff('manager');
  await approveInvoice({ actor: manager, id: invoice.id });
  return { id: invoice.id, clientId, customerId, manager };
}

/** Books an advance in the ledger for an invoice row written straight into SQL (another client's financing on the debtor). */
async function bookedAdvance(values: { clientId: string; customerId: string; amount: string; advance: number; dueDate: string }) {
  const invoiceId = await insertInvoice({ clientId: values.clientId, customerId: values.customerId, amount: values.amount, dueDate: values.dueDate });
  await inTransaction((transaction) =>
    postLedgerEntries([{ clientId: values.clientId, invoiceId, kind: 'advance', amountCents: values.advance, description: 'test advance', createdBy: null }], transaction),
  );
  return invoiceId;
}

/** Refused with `code` (its English text matching `message`), and nothing written. */
async function expectRefused(invoice: { id: string; clientId: string; manager: Awaited<ReturnType<typeof staff>> }, code: string, message: RegExp) {
  const before = await snapshot(invoice.id, invoice.clientId);
  const failure = await apiFailure(financeInvoice({ actor: invoice.manager, id: invoice.id }));
  const body = failure.body as { message: string; code: string; params: Record<string, unknown> };
  expect({ status: failure.status, code: body.code }).toEqual({ status: 409, code });
  expect(body.message).toMatch(message);
  const after = await snapshot(invoice.id, invoice.clientId);
  expect(after).toEqual(before);
  expect((after.invoice as { status: string }).status).toBe('approved');
  expect(after.payouts).toEqual([]);
  expect(after.einvoices).toEqual([]);
  return body;
}

describe('each eligibility check refuses a financing on its own, writing nothing', () => {
  it('kyc: the client’s onboarding is not completed', async () => {
    const invoice = await approvedInvoice();
    await execute(`UPDATE clients SET onboarding_status = 'in_progress' WHERE id = :id`, { id: invoice.clientId });
    await expectRefused(invoice, 'invoices.validation.kycNotApproved', /^Client KYC is not approved$/);
  });

  it('agreement: no signed agreement in force today', async () => {
    const unsigned = await approvedInvoice({ agreement: { signed: false } });
    await expectRefused(unsigned, 'invoices.refusals.noAgreement', /^No active agreement: client .* has no signed agreement in force on \d{4}-\d{2}-\d{2}$/);
    const expired = await approvedInvoice({ agreement: { validFrom: zagrebDay(-400), validUntil: zagrebDay(-1) } });
    await expectRefused(expired, 'invoices.refusals.noAgreement', /^No active agreement/);
    const none = await approvedInvoice({ agreement: false });
    const eligibility = await invoiceEligibility(none.id);
    // Without an agreement the figures cannot be computed: the checks that need them are not evaluated.
    expect(eligibility.checks.filter((check) => check.passed === null).map((check) => check.name)).toEqual([
      'tenor',
      'client_limit',
      'debtor_limit',
      'concentration',
      'fee_within_amount',
    ]);
    await expectRefused(none, 'invoices.refusals.noAgreement', /^No active agreement/);
  });

  it('debtor_blocked: the debtor’s account is blocked', async () => {
    const invoice = await approvedInvoice();
    await execute(`UPDATE customers SET account_blocked = true, blockage_reason = 'FINA' WHERE id = :id`, { id: invoice.customerId });
    await expectRefused(invoice, 'invoices.refusals.blockedWithReason', /has a blocked account \(FINA\); cannot finance the invoice$/);
  });

  it('currency: only EUR', async () => {
    const invoice = await approvedInvoice();
    await execute(`UPDATE invoices SET currency = 'USD' WHERE id = :id`, { id: invoice.id });
    await expectRefused(invoice, 'invoices.refusals.notEur', /^Only EUR invoices can be financed; this one is in USD$/);
  });

  it('iban: the client has none for the advance', async () => {
    await expectRefused(await approvedInvoice({ client: { iban: null } }), 'invoices.refusals.noIban', /has no IBAN for the advance payout$/);
  });

  it('tenor: due − issue beyond the agreement’s maximum', async () => {
    // 5 days ago to 40 days ahead: 45 days > 44.
    const body = await expectRefused(await approvedInvoice({ agreement: { maxTenorDays: 44 } }), 'invoices.refusals.tenorTooLong', /^Tenor too long: 45 days .* > 44 days/);
    expect(body.params).toEqual({ days: 45, maxDays: 44 });
    // Exactly the maximum passes.
    const invoice = await approvedInvoice({ agreement: { maxTenorDays: 45 } });
    expect((await financeInvoice({ actor: invoice.manager, id: invoice.id })).status).toBe('financed');
  });

  it('past_due: due before today in Croatia', async () => {
    const body = await expectRefused(await approvedInvoice({ issueDate: zagrebDay(-31), dueDate: zagrebDay(-1) }), 'invoices.refusals.pastDue', /^Invoice is past due/);
    expect(body.params).toEqual({ dueDate: zagrebDay(-1), today: zagrebDay(0) });
  });

  it('client_limit: used credit + advance beyond the client’s limit, or no limit', async () => {
    // 80 % of 10 000.00 = 8 000.00 > 7 999.99.
    const body = await expectRefused(await approvedInvoice({ client: { creditLimit: '7999.99' } }), 'invoices.refusals.limitExceeded', /^Credit limit exceeded/);
    expect(body.params).toEqual({ used: '0.00', advance: '8000.00', limit: '7999.99' });
    await expectRefused(await approvedInvoice({ client: { creditLimit: null } }), 'invoices.refusals.noLimit', /has no credit limit; financing is not possible$/);
  });

  it('debtor_limit: the debtor’s exposure + advance beyond its limit, or no limit approved', async () => {
    const exceeded = await approvedInvoice({ customer: { creditLimit: '20000.00' } });
    await execute(`UPDATE customers SET used_credit = '12000.01' WHERE id = :id`, { id: exceeded.customerId });
    const body = await expectRefused(
      exceeded,
      'invoices.refusals.debtorLimitExceeded',
      /^Debtor limit exceeded: customer .* used 12000.01 \+ advance 8000.00 > limit 20000.00 EUR$/,
    );
    expect(body.params).toMatchObject({ used: '12000.01', advance: '8000.00', limit: '20000.00' });
    await expectRefused(await approvedInvoice({ customer: { creditLimit: null } }), 'invoices.refusals.debtorNoLimit', /has no approved debtor limit; financing is not possible$/);
  });

  it('concentration: the debtor’s share of the client’s open funded amount past the agreement’s limit, above its threshold', async () => {
    const terms = { concentrationLimit: '50.00', concentrationThreshold: '5000.00' };
    // First financing on debtor X: 800.00 open in all, under the 5 000.00 threshold, so the 100 % share is not checked.
    const first = await approvedInvoice({ agreement: terms, amount: 1000 });
    const onFirst = await invoiceEligibility(first.id);
    expect(onFirst.checks.find((check) => check.name === 'concentration')).toMatchObject({ passed: true, text: 'invoices.eligibility.checks.concentrationNotApplied' });
    await financeInvoice({ actor: first.manager, id: first.id });
    // Then 10 000.00 on debtor Y: 8 000.00 of 8 800.00 = 90.91 % > 50 %.
    const second = await approvedInvoice({ amount: 10000 }, { clientId: first.clientId });
    const body = await expectRefused(second, 'invoices.refusals.concentrationExceeded', /^Concentration limit exceeded: 8000.00 of 8800.00 EUR .* 90.91 % > 50.00 %$/);
    expect(body.params).toMatchObject({ onDebtor: '8000.00', total: '8800.00', share: '90.91', maxShare: '50.00', threshold: '5000.00' });
    expect(roundRatio(800000n * 10000n, 880000n)).toBe(9091);
  });

  it('cross_ageing: more than 25 % of the debtor’s open financed amount (all clients) is over 90 days past due', async () => {
    const invoice = await approvedInvoice();
    const other = await financeableClient();
    // Another client's financings on the same debtor: 260.00 aged (91 days past due) of 1 000.00 open = 26 %.
    await bookedAdvance({ clientId: other.id, customerId: invoice.customerId, amount: '325.00', advance: 26000, dueDate: zagrebDay(-91) });
    await bookedAdvance({ clientId: other.id, customerId: invoice.customerId, amount: '925.00', advance: 74000, dueDate: zagrebDay(10) });
    const body = await expectRefused(
      invoice,
      'invoices.refusals.crossAgeing',
      /^Cross-ageing: 260.00 of customer .* 1000.00 EUR open financed is over 90 days past due, 26.00 % > 25.00 %/,
    );
    expect(body.params).toMatchObject({ aged: '260.00', open: '1000.00', share: '26.00', maxShare: '25.00' });
  });

  it('cross_ageing: 90 days past due is not yet aged, and exactly 25 % passes', async () => {
    const invoice = await approvedInvoice();
    const other = await financeableClient();
    await bookedAdvance({ clientId: other.id, customerId: invoice.customerId, amount: '312.50', advance: 25000, dueDate: zagrebDay(-91) });
    await bookedAdvance({ clientId: other.id, customerId: invoice.customerId, amount: '500.00', advance: 40000, dueDate: zagrebDay(-90) });
    await bookedAdvance({ clientId: other.id, customerId: invoice.customerId, amount: '437.50', advance: 35000, dueDate: zagrebDay(5) });
    const eligibility = await invoiceEligibility(invoice.id);
    expect(eligibility.checks.find((check) => check.name === 'cross_ageing')).toMatchObject({ passed: true, params: { aged: '250.00', open: '1000.00', share: '25.00' } });
    expect((await financeInvoice({ actor: invoice.manager, id: invoice.id })).status).toBe('financed');
  });

  it('cross_ageing counts the financed book only: the debtor’s aged invoice charged back leaves it (docs/collections.md#recourse-and-write-off)', async () => {
    const invoice = await approvedInvoice();
    const other = await financeableClient();
    const b = await book();
    // 325.00 at 80 %: 260.00 aged (91 days past due) of 1 000.00 open = 26 %.
    const aged = await financedInvoice(b, { clientId: other.id, customerId: invoice.customerId, amount: '325.00', dueInDays: -91, issuedDaysAgo: 100 });
    await bookedAdvance({ clientId: other.id, customerId: invoice.customerId, amount: '925.00', advance: 74000, dueDate: zagrebDay(10) });
    const crossAgeing = async () => (await invoiceEligibility(invoice.id)).checks.find((check) => check.name === 'cross_ageing');
    expect(await crossAgeing()).toMatchObject({ passed: false, params: { aged: '260.00', open: '1000.00' } });
    await chargeBackInvoice({ actor: b.manager, id: aged.id, input: { reason: 'Dužnik ne plaća' } });
    expect(await crossAgeing()).toMatchObject({ passed: true, params: { aged: '0.00', open: '740.00', share: '0.00' } });
  });

  it('fee_within_amount: advance + fee above the invoice amount', async () => {
    // 80 % advance + 15 % per started 30 days × 2 periods (40 days) = 110 % of the amount.
    const body = await expectRefused(
      await approvedInvoice({ agreement: { feeRate: '15.0000' } }),
      'invoices.refusals.feeExceedsAmount',
      /^Advance 8000.00 plus fee 3000.00 would exceed/,
    );
    expect(body.params).toEqual({ advance: '8000.00', fee: '3000.00', amount: '10000.00' });
  });
});

describe('the eligibility of an approved invoice', () => {
  it('lists every check in order with its figures, without locks', async () => {
    const invoice = await approvedInvoice({ customer: { creditLimit: '25000.00' } });
    await execute(`UPDATE customers SET used_credit = '12000.00' WHERE id = :id`, { id: invoice.customerId });
    const eligibility = await invoiceEligibility(invoice.id);
    expect(eligibility.checks.map((check) => check.name)).toEqual([...ELIGIBILITY_CHECKS]);
    expect(eligibility.checks.every((check) => check.passed === true)).toBe(true);
    expect(eligibility.eligible).toBe(true);
    expect(eligibility.checks.find((check) => check.name === 'debtor_limit')).toMatchObject({
      text: 'invoices.eligibility.checks.debtorLimit',
      params: { used: '12000.00', advance: '8000.00', limit: '25000.00' },
    });
  });
});

describe('concurrent financings on one debtor', () => {
  it('two advances that each fit the debtor’s limit but not together: exactly one succeeds, the other is the debtor_limit 409', async () => {
    const { id: customerId } = await insertCustomer({ creditLimit: '12000.00' });
    // Two clients, so only the customer row lock can keep them apart; each advance is 8 000.00.
    const a = await approvedInvoice({}, { customerId });
    const b = await approvedInvoice({}, { customerId });
    const results = await Promise.allSettled([a, b].map((invoice) => financeInvoice({ actor: invoice.manager, id: invoice.id })));
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    const rejected = results.filter((result): result is PromiseRejectedResult => result.status === 'rejected');
    expect(rejected).toHaveLength(1);
    const refusal = rejected[0].reason as Response;
    expect(refusal.status).toBe(409);
    expect(((await refusal.json()) as { code: string }).code).toBe('invoices.refusals.debtorLimitExceeded');
    expect((await selectOne<{ used_credit: string }>('SELECT used_credit FROM customers WHERE id = :customerId', { customerId }))!.used_credit).toBe('8000.00');
    expect(await ledgerDebtorExposure(customerId)).toBe(800000);
    const advances = await selectRows<{ n: number }>(
      `SELECT count(*)::int AS n FROM client_ledger l JOIN invoices i ON i.id = l.invoice_id WHERE i.customer_id = :customerId AND l.kind = 'advance'`,
      {
        customerId,
      },
    );
    expect(advances[0].n).toBe(1);
  });
});

describe('figures from the agreement version in force', () => {
  it('a financing before an edit keeps the old version’s terms, one after takes the new, to the cent, with the ledger', async () => {
    const version1: AgreementTerms = {
      advanceRate: '85.00',
      feeModel: 'interest_365',
      feeRate: '12.0000',
      minimumFee: '50.00',
      documentationFee: '100.00',
      maxTenorDays: 60,
    };
    const { id: clientId } = await financeableClient({ agreement: version1 });
    const { id: customerId } = await insertCustomer();
    const first = await approvedInvoice({ amount: 10000, issueDate: zagrebDay(-10), dueDate: zagrebDay(45) }, { clientId, customerId });
    const firstFinanced = await financeInvoice({ actor: first.manager, id: first.id });

    // Independently: advance 10 000.00 × 85 % = 8 500.00; interest 8 500.00 × 12 % × 45 / 365 = 125.7534… → 125.75 (above the 50.00 minimum);
    // the agreement's first financing adds the 100.00 documentation fee: 225.75; VAT 25 % = 56.4375 → 56.44.
    const advance1 = roundRatio(1000000n * 85n, 100n);
    const interest1 = roundRatio(BigInt(advance1) * 12n * 45n, 100n * 365n);
    const fee1 = interest1 + 10000;
    const vat1 = roundRatio(BigInt(fee1) * 25n, 100n);
    expect([advance1, interest1, fee1, vat1]).toEqual([850000, 12575, 22575, 5644]);
    expect(firstFinanced).toMatchObject({ factorAmount: 8500, factorFee: 225.75 });

    // The edit: version 2 from today, 80 % and 10 % a year, the same minimum and documentation fee.
    const v2 = await createAgreement(clientId, { ...version1, version: 2, effectiveFrom: zagrebDay(0), advanceRate: '80.00', feeRate: '10.0000' });
    const second = await approvedInvoice({ amount: 2000, issueDate: zagrebDay(-10), dueDate: zagrebDay(20) }, { clientId, customerId });
    const secondFinanced = await financeInvoice({ actor: second.manager, id: second.id });
    // Advance 2 000.00 × 80 % = 1 600.00; interest 1 600.00 × 10 % × 20 / 365 = 8.7671… → the 50.00 minimum; no documentation fee
    // (the agreement's number has been financed before); VAT 12.50.
    const advance2 = roundRatio(200000n * 80n, 100n);
    const interest2 = roundRatio(BigInt(advance2) * 10n * 20n, 100n * 365n);
    expect([advance2, interest2]).toEqual([160000, 877]);
    const fee2 = Math.max(interest2, 5000);
    const vat2 = roundRatio(BigInt(fee2) * 25n, 100n);
    expect(secondFinanced).toMatchObject({ factorAmount: 1600, factorFee: 50 });

    const stored = await selectRows<{ id: string; agreement_id: string; factor_amount: string; factor_fee: string; factor_fee_vat: string; documentation_fee: string }>(
      'SELECT id, agreement_id, factor_amount, factor_fee, factor_fee_vat, documentation_fee FROM invoices WHERE id IN (:ids) ORDER BY amount DESC',
      { ids: [first.id, second.id] },
    );
    const v1Id = (await selectOne<{ id: string }>('SELECT id FROM agreements WHERE client_id = :clientId AND version = 1', { clientId }))!.id;
    const cents = (value: number) => (value / 100).toFixed(2);
    expect(stored).toEqual([
      { id: first.id, agreement_id: v1Id, factor_amount: cents(advance1), factor_fee: cents(fee1), factor_fee_vat: cents(vat1), documentation_fee: '100.00' },
      { id: second.id, agreement_id: v2.id, factor_amount: cents(advance2), factor_fee: cents(fee2), factor_fee_vat: cents(vat2), documentation_fee: '0.00' },
    ]);

    // The ledger: advance (with its payout), fee and fee VAT (with the fee e-invoice) per financing, booked today.
    for (const [invoiceId, advance, fee, vat] of [
      [first.id, advance1, fee1, vat1],
      [second.id, advance2, fee2, vat2],
    ] as const) {
      const entries = await selectRows<{ kind: string; amount: string; booked_on: string; payout_id: string | null; einvoice_id: string | null; description: string }>(
        `SELECT kind, amount, to_char(booked_on, 'YYYY-MM-DD') AS booked_on, payout_id, einvoice_id, description FROM client_ledger WHERE invoice_id = :invoiceId ORDER BY entry_number`,
        { invoiceId },
      );
      const payout = await selectOne<{ id: string }>(`SELECT id FROM payouts WHERE invoice_id = :invoiceId AND kind = 'advance'`, { invoiceId });
      const einvoice = await selectOne<{ id: string; number: string; net_amount: string; vat_amount: string }>(
        `SELECT id, number, net_amount, vat_amount FROM outgoing_einvoices WHERE invoice_id = :invoiceId AND purpose = 'financing_fee'`,
        { invoiceId },
      );
      const number = (await selectOne<{ invoice_number: string }>('SELECT invoice_number FROM invoices WHERE id = :invoiceId', { invoiceId }))!.invoice_number;
      // The fee e-invoice's VAT is the invoice's factor_fee_vat.
      expect(einvoice).toMatchObject({ net_amount: cents(fee), vat_amount: cents(vat) });
      expect(entries).toEqual([
        { kind: 'advance', amount: cents(advance), booked_on: zagrebDay(0), payout_id: payout!.id, einvoice_id: null, description: number },
        { kind: 'fee', amount: cents(fee), booked_on: zagrebDay(0), payout_id: null, einvoice_id: einvoice!.id, description: einvoice!.number },
        { kind: 'fee_vat', amount: cents(vat), booked_on: zagrebDay(0), payout_id: null, einvoice_id: einvoice!.id, description: einvoice!.number },
      ]);
    }
    // Used credits moved by the ledger alone, by the advances.
    const client = await selectOne<{ used_credit: string }>('SELECT used_credit FROM clients WHERE id = :clientId', { clientId });
    const customer = await selectOne<{ used_credit: string }>('SELECT used_credit FROM customers WHERE id = :customerId', { customerId });
    expect([client!.used_credit, customer!.used_credit]).toEqual([cents(advance1 + advance2), cents(advance1 + advance2)]);
    expect([await ledgerUsedCredit(clientId), await ledgerDebtorExposure(customerId)]).toEqual([advance1 + advance2, advance1 + advance2]);

    // The invoice page: the version used and, financed today with nothing collected, the fee to date is the 50.00 minimum.
    expect(await financedFees({ id: first.id, status: 'financed' })).toEqual({
      agreementNumber: v2.number,
      agreementVersion: 1,
      feeCharged: fee1 / 100,
      documentationFee: 100,
      feeVat: vat1 / 100,
      feeAccrued: 50,
      accruedUntil: zagrebDay(0),
    });
    expect(await financedFees({ id: second.id, status: 'financed' })).toMatchObject({ agreementVersion: 2, feeCharged: 50, documentationFee: 0, feeVat: 12.5 });
  });
});
