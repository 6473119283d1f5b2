import { beforeEach, describe, expect, it } from 'vitest';
import { computeScore, RISK_FACTORS, RISK_FACTOR_NAMES, scoreEntity, scoreFactors, type RiskInputs } from './scoring.server.ts';
import { categoryOf } from './scoring.ts';
import { clearBook, insertClient, insertCustomer, insertInvoice } from '../../tests/factories.ts';

const AS_OF = '2026-03-01';

describe('the factor table', () => {
  it('names each factor once, in the stored order, with weights that sum to exactly 1', () => {
    expect(RISK_FACTORS.map((factor) => factor.name)).toEqual([...RISK_FACTOR_NAMES]);
    expect(RISK_FACTORS.reduce((sum, factor) => sum + Math.round(factor.weight * 10_000), 0)).toBe(10_000);
    for (const factor of RISK_FACTORS) expect(factor.description.length).toBeGreaterThan(20);
  });
});

describe('computeScore', () => {
  const one = (score: number) => ({ only: { score, weight: 1 } });

  it('puts 59 in high, 60 and 79 in medium, 80 in low', () => {
    expect(computeScore(one(59))).toEqual({ automaticScore: 59, score: 59, category: 'high' });
    expect(computeScore(one(60))).toEqual({ automaticScore: 60, score: 60, category: 'medium' });
    expect(computeScore(one(79))).toEqual({ automaticScore: 79, score: 79, category: 'medium' });
    expect(computeScore(one(80))).toEqual({ automaticScore: 80, score: 80, category: 'low' });
    expect([0, 59, 60, 79, 80, 100].map(categoryOf)).toEqual(['high', 'high', 'medium', 'medium', 'low', 'low']);
  });

  it('adds the manual adjustment and clamps the score to 0–100, leaving the automatic score alone', () => {
    expect(computeScore(one(75), 5)).toEqual({ automaticScore: 75, score: 80, category: 'low' });
    expect(computeScore(one(61), -2)).toEqual({ automaticScore: 61, score: 59, category: 'high' });
    expect(computeScore(one(95), 30)).toEqual({ automaticScore: 95, score: 100, category: 'low' });
    expect(computeScore(one(10), -100)).toEqual({ automaticScore: 10, score: 0, category: 'high' });
  });

  it('rounds Σ weight × score half up without float drift (0.15 × 90 = 13.5 → 14)', () => {
    // In floats 0.15 * 90 is 13.499999999999998, which Math.round would make 13.
    expect(computeScore({ a: { score: 90, weight: 0.15 }, b: { score: 0, weight: 0.85 } }).automaticScore).toBe(14);
    expect(computeScore({ a: { score: 89, weight: 0.15 }, b: { score: 0, weight: 0.85 } }).automaticScore).toBe(13);
  });

  it('reproduces a seeded-style assessment (weights 0.30/0.20/0.15/0.10/0.10/0.15 incl. financials)', () => {
    const factors = {
      paymentHistory: { score: 88, weight: 0.3 },
      daysPastDue: { score: 91, weight: 0.2 },
      accountBlockages: { score: 100, weight: 0.15 },
      concentration: { score: 79, weight: 0.1 },
      companyAge: { score: 97, weight: 0.1 },
      financials: { score: 84, weight: 0.15 },
    };
    // 26.4 + 18.2 + 15 + 7.9 + 9.7 + 12.6 = 89.8 → 90
    expect(computeScore(factors, -10)).toEqual({ automaticScore: 90, score: 80, category: 'low' });
  });
});

const base: RiskInputs = {
  entityType: 'client',
  dueInvoices: 0,
  paidOnTime: 0,
  openCents: 0,
  averageDaysPastDue: null,
  accountBlocked: false,
  blockedShare: null,
  concentrationShare: null,
  ageYears: null,
  creditUsage: null,
  usedCents: 0,
  limitCents: null,
  dilutionRate: null,
};

describe('scoreFactors (each formula on hand-made inputs)', () => {
  it('scores a new entity without a book as neutral', () => {
    const factors = scoreFactors(base);
    expect(Object.keys(factors)).toEqual([...RISK_FACTOR_NAMES]);
    expect(Object.fromEntries(Object.entries(factors).map(([name, factor]) => [name, factor.score]))).toEqual({
      paymentHistory: 60,
      daysPastDue: 100,
      accountBlockages: 100,
      concentration: 100,
      companyAge: 50,
      creditUsage: 100,
      dilution: 100,
    });
    // 15 + 20 + 15 + 10 + 5 + 10 + 10
    expect(computeScore(factors).automaticScore).toBe(85);
  });

  it('applies each formula', () => {
    const client = scoreFactors({
      ...base,
      dueInvoices: 4,
      paidOnTime: 3,
      openCents: 400_000,
      averageDaysPastDue: 12.5,
      blockedShare: 0.1,
      concentrationShare: 0.6,
      ageYears: 4,
      creditUsage: 0.35,
      usedCents: 350_000,
      limitCents: 1_000_000,
    });
    expect(client.paymentHistory).toMatchObject({ score: 75, value: 0.75, weight: 0.25 });
    expect(client.daysPastDue).toMatchObject({ score: 75, value: 12.5, weight: 0.2 });
    expect(client.accountBlockages).toMatchObject({ score: 90, value: 0.1 });
    expect(client.concentration).toMatchObject({ score: 40, value: 0.6 });
    expect(client.companyAge).toMatchObject({ score: 40, value: 4 });
    expect(client.creditUsage).toMatchObject({ score: 65, value: 0.35 });
    expect(client.creditUsage.explanation).toContain('3500.00 EUR used of a 10000.00 EUR limit');

    const customer = scoreFactors({ ...base, entityType: 'customer', accountBlocked: true, concentrationShare: 0.2, creditUsage: 1.4, ageYears: 25 });
    expect(customer.accountBlockages).toMatchObject({ score: 0, value: 1 });
    expect(customer.concentration).toMatchObject({ score: 20, value: 0.2 });
    expect(customer.creditUsage.score).toBe(0);
    expect(customer.companyAge.score).toBe(100);
    expect(scoreFactors({ ...base, averageDaysPastDue: 75 }).daysPastDue.score).toBe(0);
    expect(scoreFactors({ ...base, usedCents: 100 }).creditUsage).toMatchObject({ score: 0, value: null });
    // Dilution: 100 − 10 × rate, floored at 0.
    expect(scoreFactors({ ...base, dilutionRate: 2.55 }).dilution).toMatchObject({ score: 75, value: 0.0255, weight: 0.1 });
    expect(scoreFactors({ ...base, dilutionRate: 12 }).dilution.score).toBe(0);
    expect(scoreFactors({ ...base, dilutionRate: 0 }).dilution.score).toBe(100);
  });
});

describe('inputs from the book (SQL)', () => {
  beforeEach(clearBook);

  it('a customer with one invoice paid 10 days late scores 0 on payment history', async () => {
    const { id: clientId } = await insertClient();
    const { id: customerId } = await insertCustomer({ foundedOn: '2016-02-01' });
    await insertInvoice({ clientId, customerId, amount: '1000.00', dueDate: '2026-01-10', paidAt: '2026-01-20T10:00:00+01:00' });

    const { factors, automaticScore, score, category, inputs } = await scoreEntity('customer', customerId, { asOf: AS_OF });
    expect(inputs).toMatchObject({ dueInvoices: 1, paidOnTime: 0, openCents: 0, averageDaysPastDue: null, ageYears: 10 });
    expect(factors.paymentHistory).toMatchObject({ score: 0, value: 0, weight: 0.25 });
    expect(factors.daysPastDue.score).toBe(100);
    expect(factors.accountBlockages.score).toBe(100);
    expect(factors.concentration.score).toBe(100);
    expect(factors.companyAge).toMatchObject({ score: 100, value: 10 });
    expect(factors.creditUsage.score).toBe(100);
    // 0 + 20 + 15 + 10 + 10 + 10 + 10
    expect({ automaticScore, score, category }).toEqual({ automaticScore: 75, score: 75, category: 'medium' });
  });

  it('pays on the due date (Croatian calendar day) as on time', async () => {
    const { id: clientId } = await insertClient();
    const { id: customerId } = await insertCustomer();
    // Paid 23:30 Zagreb time on the due date: on time; 00:30 the next day: late.
    await insertInvoice({ clientId, customerId, amount: '500.00', dueDate: '2026-01-10', paidAt: '2026-01-10T23:30:00+01:00' });
    await insertInvoice({ clientId, customerId, amount: '500.00', dueDate: '2026-01-10', paidAt: '2026-01-11T00:30:00+01:00' });
    const { inputs, factors } = await scoreEntity('customer', customerId, { asOf: AS_OF });
    expect(inputs).toMatchObject({ dueInvoices: 2, paidOnTime: 1 });
    expect(factors.paymentHistory.score).toBe(50);
  });

  it('a client book: late, blocked and concentrated, near its limit', async () => {
    const { id: clientId } = await insertClient({ foundedOn: '2023-06-01', creditLimit: '10000.00', usedCredit: '3200.00' });
    const { id: big } = await insertCustomer();
    const { id: blocked } = await insertCustomer({ blocked: true });
    await insertInvoice({ clientId, customerId: big, amount: '3000.00', dueDate: '2026-02-09' }); // 20 days past due
    await insertInvoice({ clientId, customerId: blocked, amount: '1000.00', dueDate: '2026-03-10' }); // not yet due
    await insertInvoice({ clientId, customerId: big, amount: '1000.00', dueDate: '2026-01-15', paidAt: '2026-01-14T09:00:00+01:00' });
    await insertInvoice({ clientId, customerId: big, amount: '9999.00', dueDate: '2026-01-15', status: 'pending' }); // not financed: ignored

    const client = await scoreEntity('client', clientId, { asOf: AS_OF });
    expect(client.inputs).toMatchObject({
      dueInvoices: 2,
      paidOnTime: 1,
      openCents: 400_000,
      averageDaysPastDue: 15,
      blockedShare: 0.25,
      concentrationShare: 0.75,
      ageYears: 2,
      creditUsage: 0.32,
    });
    const scores = Object.fromEntries(Object.entries(client.factors).map(([name, factor]) => [name, factor.score]));
    expect(scores).toEqual({ paymentHistory: 50, daysPastDue: 70, accountBlockages: 75, concentration: 25, companyAge: 20, creditUsage: 68, dilution: 100 });
    // 12.5 + 14 + 11.25 + 2.5 + 2 + 6.8 + 10 = 59.05 → 59
    expect(client).toMatchObject({ automaticScore: 59, score: 59, category: 'high' });

    // The blocked customer: nothing due yet, blocked, a quarter of the factor's whole open book, 1 % of the exposure threshold.
    const customer = await scoreEntity('customer', blocked, { asOf: AS_OF });
    const customerScores = Object.fromEntries(Object.entries(customer.factors).map(([name, factor]) => [name, factor.score]));
    expect(customerScores).toEqual({ paymentHistory: 60, daysPastDue: 100, accountBlockages: 0, concentration: 0, companyAge: 50, creditUsage: 99, dilution: 100 });
    // 15 + 20 + 0 + 0 + 5 + 9.9 + 10 = 59.9 → 60
    expect(customer).toMatchObject({ automaticScore: 60, category: 'medium' });
  });

  it('counts invoices charged back or written off as due and never paid on time, outside the open book', async () => {
    const { id: clientId } = await insertClient();
    const { id: customerId } = await insertCustomer();
    await insertInvoice({ clientId, customerId, amount: '1000.00', dueDate: '2026-01-10', paidAt: '2026-01-09T10:00:00+01:00' });
    await insertInvoice({ clientId, customerId, amount: '2000.00', dueDate: '2025-11-20', status: 'charged_back' });
    await insertInvoice({ clientId, customerId, amount: '3000.00', dueDate: '2025-12-01', status: 'written_off' });
    // Charged back early by a manager, before it fell due: the factor gave up on it all the same.
    await insertInvoice({ clientId, customerId, amount: '500.00', dueDate: '2026-04-01', status: 'charged_back', closedAt: '2026-02-20T10:00:00+01:00' });
    // The one invoice still in the open book: 10 days past due.
    await insertInvoice({ clientId, customerId, amount: '800.00', dueDate: '2026-02-19' });

    for (const entityType of ['customer', 'client'] as const) {
      const { inputs, factors } = await scoreEntity(entityType, entityType === 'customer' ? customerId : clientId, { asOf: AS_OF });
      // Due: the paid one, the three closed unpaid and the financed one past due; on time: the paid one.
      expect(inputs, entityType).toMatchObject({ dueInvoices: 5, paidOnTime: 1, openCents: 80_000, averageDaysPastDue: 10 });
      expect(factors.paymentHistory, entityType).toMatchObject({ score: 20, value: 0.2 });
      expect(factors.daysPastDue.score, entityType).toBe(80);
    }
  });

  it('refuses an unknown entity with 404', async () => {
    const error = await scoreEntity('client', '00000000-0000-4000-8000-000000000000').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Response);
    expect((error as Response).status).toBe(404);
  });
});
