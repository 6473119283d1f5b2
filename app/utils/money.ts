/**
 * Money as integer cents (docs/money.md: never float arithmetic). Every NUMERIC(15,2)
 * value (|x| < 10^13 EUR, so < 10^15 cents) is an exact JS integer, far below
 * 2^53. Decimal strings from PostgreSQL are parsed digit by digit; products and
 * percentages go through BigInt so no intermediate result is ever rounded.
 * Shared by browser and server.
 */

export type Rounding = 'half-up' | 'half-even' | 'down';

const DECIMAL = /^([+-])?(\d+)(?:\.(\d+))?$/;
/**
 * The cents of what PostgreSQL sends for NUMERIC(15,2) — an optional minus, 1 to 13 digits, a point and
 * exactly two decimals — or null for any other text. Read digit by digit: a list maps thousands of these
 * per request, and a regular expression's match (an array and three strings each) was a tenth of what a
 * list request allocated. At most 15 digits, so the integer stays exact.
 */
function numeric15x2Cents(value: string): number | null {
  const negative = value.charCodeAt(0) === 45; // '-'
  const start = negative ? 1 : 0;
  const point = value.length - 3;
  const wholeDigits = point - start;
  if (wholeDigits < 1 || wholeDigits > 13 || value.charCodeAt(point) !== 46) return null; // '.'
  let cents = 0;
  for (let index = start; index < value.length; index++) {
    if (index === point) continue;
    const digit = value.charCodeAt(index) - 48;
    if (digit < 0 || digit > 9) return null;
    cents = cents * 10 + digit;
  }
  return negative && cents !== 0 ? -cents : cents;
}

function assertSafeCents(cents: number, what: string) {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`${what} is not a whole number of cents: ${cents}`);
}

/** A string or number as an exact decimal string; numbers go through their shortest round-trip form. */
function decimalText(value: string | number): string {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new RangeError(`not a finite amount: ${value}`);
    // String(1e21) is '1e+21' and String(1e-7) is '1e-7': both fail DECIMAL below, as they should.
    return String(value);
  }
  if (typeof value !== 'string') throw new TypeError(`amount must be a string or number, got ${typeof value}`);
  return value.trim();
}

/** Divides a BigInt numerator by a positive BigInt denominator with the given rounding. */
function divideRounded(numerator: bigint, denominator: bigint, rounding: Rounding): bigint {
  const negative = numerator < 0n;
  const abs = negative ? -numerator : numerator;
  let quotient = abs / denominator;
  const remainder = abs % denominator;
  if (remainder !== 0n) {
    const twice = remainder * 2n;
    // half-up rounds ties away from zero (the usual commercial rounding).
    if (rounding === 'half-up' && twice >= denominator) quotient += 1n;
    else if (rounding === 'half-even' && (twice > denominator || (twice === denominator && quotient % 2n === 1n))) quotient += 1n;
  }
  return negative ? -quotient : quotient;
}

function toSafeNumber(value: bigint, what: string): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < -BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new RangeError(`${what} is too large: ${value}`);
  }
  return Number(value);
}

/** Parses a decimal into a scaled BigInt: { units, scale } with value = units / 10^scale. */
function parseDecimal(value: string | number): { units: bigint; scale: number } {
  const text = decimalText(value);
  const match = DECIMAL.exec(text);
  if (!match) throw new RangeError(`not a decimal amount: ${JSON.stringify(text)}`);
  const [, sign, whole, fraction = ''] = match;
  const units = BigInt(whole + fraction) * (sign === '-' ? -1n : 1n);
  return { units, scale: fraction.length };
}

/**
 * Exact cents of a decimal ('1234.5', '-0.05', 1234.5). More than two decimals
 * is an error, unless they are zeros ('10.500' from NUMERIC(15,3) is fine):
 * use `toCentsRounded` when rounding is really wanted.
 */
export function toCents(value: string | number): number {
  // What NUMERIC(15,2) gives: at most 13 whole digits and exactly two decimals, so whole × 100 + cents stays an exact
  // integer below 10^15; every list reads thousands of these (the general path below builds BigInts for each).
  if (typeof value === 'string') {
    const cents = numeric15x2Cents(value);
    if (cents !== null) return cents;
  }
  const { units, scale } = parseDecimal(value);
  if (scale <= 2) return toSafeNumber(units * 10n ** BigInt(2 - scale), 'amount');
  const divisor = 10n ** BigInt(scale - 2);
  if (units % divisor !== 0n) throw new RangeError(`amount has more than 2 decimals: ${JSON.stringify(decimalText(value))}`);
  return toSafeNumber(units / divisor, 'amount');
}

/** Cents of a decimal with any number of decimals, rounded explicitly (half-up by default). */
export function toCentsRounded(value: string | number, options: { rounding?: Rounding } = {}): number {
  const { units, scale } = parseDecimal(value);
  if (scale <= 2) return toSafeNumber(units * 10n ** BigInt(2 - scale), 'amount');
  return toSafeNumber(divideRounded(units, 10n ** BigInt(scale - 2), options.rounding ?? 'half-up'), 'amount');
}

/** '1234.50', '-0.05': the form PostgreSQL NUMERIC(15,2) takes and gives. */
export function centsToDecimalString(cents: number): string {
  assertSafeCents(cents, 'amount');
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/**
 * EUR as a JSON number (1234.5). Division is correctly rounded in IEEE 754, so
 * cents / 100 is exactly the double that parsing '1234.50' gives: no drift.
 */
export function centsToNumber(cents: number): number {
  assertSafeCents(cents, 'amount');
  return cents / 100;
}

/**
 * `percent` % of `cents`, exact until one final rounding to the cent: 80.00 %
 * of 1000.01 → 800.01 (800.008 rounded half-up); 1.500 % of 1234.56 → 18.52.
 * `percent` is a decimal string as NUMERIC gives it ('80.00', '1.500') or a number.
 */
export function percentOfCents(cents: number, percent: string | number, options: { rounding?: Rounding } = {}): number {
  assertSafeCents(cents, 'amount');
  const { units, scale } = parseDecimal(percent);
  const denominator = 100n * 10n ** BigInt(scale);
  return toSafeNumber(divideRounded(BigInt(cents) * units, denominator, options.rounding ?? 'half-up'), 'percentage');
}

/** Exact sum of cents; throws on a non-integer or on overflow past 2^53. */
export function sumCents(values: Iterable<number>): number {
  let total = 0n;
  for (const value of values) {
    assertSafeCents(value, 'amount');
    total += BigInt(value);
  }
  return toSafeNumber(total, 'sum');
}

/** Fee periods of 30 days: every started period counts, and at least one. */
export function feePeriods(days: number): number {
  if (!Number.isFinite(days)) throw new RangeError(`not a number of days: ${days}`);
  return Math.max(1, Math.ceil(days / 30));
}

/**
 * The factoring fee (docs/money.md: a discount fee rate per 30 days, charged on the
 * invoice amount) for `days` from financing to the due date, each started
 * 30 days counting in full, rounded once half-up.
 */
export function factoringFeeCents(amountCents: number, feeRatePercent: string | number, days: number): number {
  assertSafeCents(amountCents, 'amount');
  const { units, scale } = parseDecimal(feeRatePercent);
  const numerator = BigInt(amountCents) * units * BigInt(feePeriods(days));
  return toSafeNumber(divideRounded(numerator, 100n * 10n ** BigInt(scale), 'half-up'), 'fee');
}

/**
 * `percent` % of Σ cents_i × weight_i / divisor, rounded once half-up: the fee on a
 * balance that changes over time (weights are days or periods), with no rounding
 * per segment so an auditor summing the segments by hand gets the same cent.
 */
export function percentOfWeightedCents(segments: Iterable<{ cents: number; weight: number }>, percent: string | number, divisor = 1): number {
  if (!Number.isSafeInteger(divisor) || divisor <= 0) throw new RangeError(`divisor must be a positive whole number: ${divisor}`);
  const { units, scale } = parseDecimal(percent);
  let weighted = 0n;
  for (const { cents, weight } of segments) {
    assertSafeCents(cents, 'amount');
    if (!Number.isSafeInteger(weight) || weight < 0) throw new RangeError(`weight must be a whole number ≥ 0: ${weight}`);
    weighted += BigInt(cents) * BigInt(weight);
  }
  return toSafeNumber(divideRounded(weighted * units, 100n * 10n ** BigInt(scale) * BigInt(divisor), 'half-up'), 'fee');
}
