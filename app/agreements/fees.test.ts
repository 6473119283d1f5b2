import { describe, expect, it } from 'vitest';
import { factoringFeeCents, percentOfWeightedCents } from '../utils/money.ts';
import { daysBetween, invoiceFee, type Collection, type FeeTerms } from './fees.ts';

const discount: FeeTerms = { feeModel: 'discount_30', feeRate: '1.500', minimumFeeCents: 0, adminFeeCents: 0 };
const act365: FeeTerms = { feeModel: 'interest_365', feeRate: '12.000', minimumFeeCents: 5000, adminFeeCents: 1000 };

/** The fee of a 10,000.00 invoice with an 8,000.00 advance, financed on 1 January 2026, computed to `until`. */
const feeOf = (terms: FeeTerms, until: string, collections: Collection[] = []) =>
  invoiceFee(terms, { amountCents: 1_000_000, advanceCents: 800_000, financedOn: '2026-01-01', until, collections });

describe('daysBetween', () => {
  it('counts calendar days across month ends, leap days and the change to summer time', () => {
    expect(daysBetween('2026-01-01', '2026-02-15')).toBe(45);
    expect(daysBetween('2028-02-28', '2028-03-01')).toBe(2);
    expect(daysBetween('2026-03-28', '2026-03-30')).toBe(2);
    expect(daysBetween('2026-02-15', '2026-01-01')).toBe(0);
  });
  it('refuses what is not a day', () => {
    expect(() => daysBetween('2026-1-1', '2026-02-01')).toThrow(RangeError);
    expect(() => daysBetween('2026-02-30x', '2026-03-01')).toThrow(RangeError);
  });
});

describe('the discount per started 30 days', () => {
  it('to the due date equals the fee of today’s financing (amount × rate × started periods)', () => {
    const fee = feeOf(discount, '2026-02-15');
    expect(fee.totalCents).toBe(30_000);
    expect(fee.totalCents).toBe(factoringFeeCents(1_000_000, '1.500', 45));
    expect(fee.segments).toHaveLength(2);
  });

  it('charges one period for an invoice paid the day it was financed, on what was still open', () => {
    expect(feeOf(discount, '2026-01-01').totalCents).toBe(15_000);
    const paid = feeOf(discount, '2026-01-01', [{ day: '2026-01-01', cents: 1_000_000 }]);
    expect(paid.totalCents).toBe(0);
  });

  it('charges each period on the open amount at its start: 4,000.00 paid on day 20 lowers the second period', () => {
    const fee = feeOf(discount, '2026-02-15', [
      { day: '2026-01-21', cents: 400_000 },
      { day: '2026-02-15', cents: 600_000 },
    ]);
    // 10,000.00 × 1.5 % + 6,000.00 × 1.5 % = 150.00 + 90.00
    expect(fee.segments.map((segment) => segment.baseCents)).toEqual([1_000_000, 600_000]);
    expect(fee.totalCents).toBe(24_000);
  });

  it('a payment on the first day of a period counts for that period', () => {
    const fee = feeOf(discount, '2026-02-15', [{ day: '2026-01-31', cents: 500_000 }]);
    expect(fee.segments.map((segment) => segment.baseCents)).toEqual([1_000_000, 500_000]);
  });
});

describe('daily interest on the advance outstanding', () => {
  it('financed on day 0, 3,000.00 collected on day 20, settled on day 45: actual/365 to the cent', () => {
    const fee = feeOf(act365, '2026-02-15', [
      { day: '2026-01-21', cents: 300_000 },
      { day: '2026-02-15', cents: 700_000 },
    ]);
    // (8,000.00 × 20 + 5,000.00 × 25) × 12 % / 365 = 34,200 / 365 = 93.6986… → 93.70
    expect(fee.segments).toEqual([
      { from: '2026-01-01', to: '2026-01-21', baseCents: 800_000, weight: 20 },
      { from: '2026-01-21', to: '2026-02-15', baseCents: 500_000, weight: 25 },
    ]);
    expect(fee.computedCents).toBe(9_370);
    expect(fee.minimumApplied).toBe(false);
    expect(fee.totalCents).toBe(9_370 + 1_000);
  });

  it('on actual/360 the same days give 95.00', () => {
    const fee = feeOf({ ...act365, feeModel: 'interest_360' }, '2026-02-15', [{ day: '2026-01-21', cents: 300_000 }]);
    expect(fee.computedCents).toBe(9_500);
  });

  it('a collection larger than the advance leaves no base, not a negative one', () => {
    const fee = feeOf(act365, '2026-03-02', [{ day: '2026-01-31', cents: 900_000 }]);
    expect(fee.segments.map((segment) => segment.baseCents)).toEqual([800_000, 0]);
  });

  it('lifts a small fee to the minimum fee and adds the admin fee', () => {
    const fee = invoiceFee(act365, { amountCents: 125_000, advanceCents: 100_000, financedOn: '2026-01-01', until: '2026-01-11' });
    // 1,000.00 × 10 × 12 % / 365 = 3.29, below the 50.00 minimum
    expect(fee.computedCents).toBe(329);
    expect(fee.minimumApplied).toBe(true);
    expect(fee.totalCents).toBe(5_000 + 1_000);
  });

  it('ignores collections after the day it is computed to (the accrual to date)', () => {
    const toDate = feeOf(act365, '2026-01-11', [{ day: '2026-01-21', cents: 300_000 }]);
    expect(toDate.segments).toEqual([{ from: '2026-01-01', to: '2026-01-11', baseCents: 800_000, weight: 10 }]);
  });
});

describe('percentOfWeightedCents', () => {
  it('rounds once at the end, not per segment', () => {
    // Each 0.005 alone would round to 0.01; together 0.015 → 0.02, not 0.03.
    expect(
      percentOfWeightedCents(
        [
          { cents: 1, weight: 1 },
          { cents: 1, weight: 1 },
          { cents: 1, weight: 1 },
        ],
        '50',
      ),
    ).toBe(2);
  });
  it('refuses a fractional weight or a zero divisor', () => {
    expect(() => percentOfWeightedCents([{ cents: 100, weight: 1.5 }], '1')).toThrow(RangeError);
    expect(() => percentOfWeightedCents([{ cents: 100, weight: 1 }], '1', 0)).toThrow(RangeError);
  });
});
