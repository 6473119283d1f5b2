import { percentOfWeightedCents } from '../utils/money.ts';
import type { AgreementFeeModel } from '../../db/models/enums.ts';

/**
 * The fee models of a factoring agreement (docs/money.md#fees-that-follow-time).
 * Pure and shared by browser and server: the invoice page shows the fee accrued
 * to date with the same arithmetic that settles it.
 *
 *  - `discount_30`: fee rate % per started 30 days, on the invoice's open amount
 *    at the start of each period (at least one period).
 *  - `interest_360` / `interest_365`: yearly rate %, daily on the advance still
 *    outstanding, actual days over a 360- or 365-day year.
 *
 * Collections (the debtor's confirmed payments on the invoice) lower the base
 * from their day. The time fee is at least the agreement's minimum fee; the admin
 * fee per invoice is added on top. One rounding, half-up, at the end.
 */
export type FeeModel = AgreementFeeModel;

export interface FeeTerms {
  feeModel: FeeModel;
  /** Percent as NUMERIC gives it: per 30 days for the discount, per year for interest. */
  feeRate: string;
  minimumFeeCents: number;
  adminFeeCents: number;
}

/** Money collected on the invoice on a business day ('YYYY-MM-DD'). */
export interface Collection {
  day: string;
  cents: number;
}

export interface FeeSegment {
  /** First day of the segment (inclusive) and the day it ends (exclusive). */
  from: string;
  to: string;
  baseCents: number;
  /** Days (interest) or 1 (one discount period). */
  weight: number;
}

export interface FeeBreakdown {
  days: number;
  segments: FeeSegment[];
  /** The time fee before the minimum. */
  computedCents: number;
  minimumApplied: boolean;
  timeFeeCents: number;
  adminFeeCents: number;
  totalCents: number;
}

const DAY_MS = 86_400_000;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

function dayNumber(day: string): number {
  if (!DAY.test(day)) throw new RangeError(`not a day: ${day}`);
  const time = Date.parse(`${day}T00:00:00Z`);
  if (Number.isNaN(time)) throw new RangeError(`not a day: ${day}`);
  return time / DAY_MS;
}

function dayText(number: number): string {
  return new Date(number * DAY_MS).toISOString().slice(0, 10);
}

/** Calendar days from `from` to `to` (0 on the same day; never negative). */
export function daysBetween(from: string, to: string): number {
  return Math.max(0, dayNumber(to) - dayNumber(from));
}

/** The year basis of an interest model, or null for the discount. */
function yearBasis(model: FeeModel): number | null {
  if (model === 'interest_360') return 360;
  if (model === 'interest_365') return 365;
  return null;
}

/** What a collection is set against: the open amount for the discount, the advance for interest. */
function startingBase(model: FeeModel, amountCents: number, advanceCents: number): number {
  return yearBasis(model) === null ? amountCents : advanceCents;
}

/** The base still open at the end of `offset` days: starting base less collections up to and including that day. */
function baseAt(startCents: number, collections: Array<{ offset: number; cents: number }>, offset: number): number {
  let base = startCents;
  for (const collection of collections) if (collection.offset <= offset) base -= collection.cents;
  return Math.max(0, base);
}

/**
 * The fee of one financed invoice from `financedOn` until `until` (the day the
 * debtor paid in full, today for the accrual, or the due date for the fee
 * expected at financing).
 */
export function invoiceFee(terms: FeeTerms, input: { amountCents: number; advanceCents: number; financedOn: string; until: string; collections?: Collection[] }): FeeBreakdown {
  const start = dayNumber(input.financedOn);
  const days = daysBetween(input.financedOn, input.until);
  const collections = (input.collections ?? [])
    .map((collection) => ({ offset: Math.max(0, dayNumber(collection.day) - start), cents: collection.cents }))
    .filter((collection) => collection.offset <= days)
    .sort((a, b) => a.offset - b.offset);
  const base = startingBase(terms.feeModel, input.amountCents, input.advanceCents);
  const basis = yearBasis(terms.feeModel);
  const segments: FeeSegment[] = [];

  if (basis === null) {
    const periods = Math.max(1, Math.ceil(days / 30));
    for (let period = 0; period < periods; period += 1) {
      const from = period * 30;
      segments.push({ from: dayText(start + from), to: dayText(start + Math.min(from + 30, Math.max(days, 30))), baseCents: baseAt(base, collections, from), weight: 1 });
    }
  } else {
    // A new segment wherever a collection changes the base; a collection on day d counts from day d.
    const changes = [...new Set([0, ...collections.map((collection) => collection.offset)])].filter((offset) => offset < days).sort((a, b) => a - b);
    changes.forEach((from, index) => {
      const to = changes[index + 1] ?? days;
      segments.push({ from: dayText(start + from), to: dayText(start + to), baseCents: baseAt(base, collections, from), weight: to - from });
    });
  }

  const computedCents = percentOfWeightedCents(
    segments.map((segment) => ({ cents: segment.baseCents, weight: segment.weight })),
    terms.feeRate,
    basis ?? 1,
  );
  const minimumApplied = computedCents < terms.minimumFeeCents;
  const timeFeeCents = minimumApplied ? terms.minimumFeeCents : computedCents;
  return { days, segments, computedCents, minimumApplied, timeFeeCents, adminFeeCents: terms.adminFeeCents, totalCents: timeFeeCents + terms.adminFeeCents };
}
