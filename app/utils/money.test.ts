import { describe, expect, it } from 'vitest';
import { centsToDecimalString, centsToNumber, factoringFeeCents, feePeriods, percentOfCents, sumCents, toCents, toCentsRounded } from './money.ts';

describe('toCents', () => {
  it('parses decimal strings exactly', () => {
    expect(toCents('1234.50')).toBe(123450);
    expect(toCents('1234.5')).toBe(123450);
    expect(toCents('1234')).toBe(123400);
    expect(toCents('0.01')).toBe(1);
    expect(toCents('-0.05')).toBe(-5);
    expect(toCents('+7.10')).toBe(710);
    expect(toCents(' 12.30 ')).toBe(1230);
    // The largest NUMERIC(15,2) value stays exact.
    expect(toCents('9999999999999.99')).toBe(999_999_999_999_999);
    // Where float multiplication goes wrong: 1.005 * 100 = 100.49999999999999, 0.29 * 100 = 28.999999999999996.
    expect(toCents('0.29')).toBe(29);
    expect(toCents('19.99')).toBe(1999);
  });

  it('reads what PostgreSQL gives for NUMERIC(15,2) (two decimals) exactly, as the general parse would', () => {
    const generally = (text: string) => toCents(`${text}0`); // a third decimal zero takes the general path
    for (const text of ['0.00', '-0.00', '0.01', '-0.01', '1234.50', '-1234.56', '9999999999999.99', '-9999999999999.99', '100000.10', '0.29']) {
      expect(toCents(text), text).toBe(generally(text));
      expect(Object.is(toCents(text), -0), text).toBe(false);
    }
    expect(toCents('-1234.56')).toBe(-123456);
    expect(toCents('9999999999999.99')).toBe(999_999_999_999_999);
  });

  it('reads NUMERIC(15,2) text digit by digit, as the pattern of that text names it', () => {
    // The shape of NUMERIC(15,2) text and the cents it names, written as a pattern.
    const byPattern = (text: string) => {
      const match = /^(-)?(\d{1,13})\.(\d\d)$/.exec(text);
      if (!match) throw new Error(`not NUMERIC(15,2) text: ${text}`);
      const cents = Number(match[2]) * 100 + Number(match[3]);
      return match[1] && cents !== 0 ? -cents : cents;
    };
    let seed = 7;
    const next = () => (seed = (seed * 48271) % 2147483647);
    for (let index = 0; index < 5000; index++) {
      const digits = String(next()).padStart(10, '0') + String(next()).padStart(10, '0');
      const text = `${next() % 2 ? '-' : ''}${digits.slice(0, 1 + (next() % 13))}.${digits.slice(-2)}`;
      expect(toCents(text), text).toBe(byPattern(text));
    }
    for (const text of ['0.00', '-0.00', '00.01', '-9999999999999.99', '1234567890123.45']) {
      expect(toCents(text), text).toBe(byPattern(text));
      expect(Object.is(toCents(text), -0), text).toBe(false);
    }
  });

  it('leaves any other text to the general parse', () => {
    // Near misses of the NUMERIC(15,2) shape: characters either side of '0'–'9' and '.', a sign, a missing or extra part.
    for (const text of ['', '-', '-.12', '.12', '1.234', '12.3a', '1a.23', '1-2.34', '--1.23', '1,23', '1.2.3', '/9.99', ':9.99', '9./9', '9.:9']) {
      expect(() => toCents(text), text).toThrow(RangeError);
    }
    expect(toCents('1.2')).toBe(120);
    expect(toCents('+1.23')).toBe(123);
    expect(toCents(' 1.23')).toBe(123);
    expect(toCents('1.23 ')).toBe(123);
    // 14 whole digits is more than NUMERIC(15,2) holds, but still an exact number of cents.
    expect(toCents('12345678901234.56')).toBe(1234567890123456);
  });

  it('accepts numbers through their shortest decimal form', () => {
    expect(toCents(1234.5)).toBe(123450);
    expect(toCents(0.29)).toBe(29);
    expect(toCents(-3)).toBe(-300);
  });

  it('allows trailing zero decimals but refuses a third significant decimal', () => {
    expect(toCents('10.500')).toBe(1050);
    expect(() => toCents('1.005')).toThrow(/more than 2 decimals/);
    expect(() => toCents(0.1 + 0.2)).toThrow(/more than 2 decimals/);
  });

  it('refuses what is not a plain decimal', () => {
    for (const value of ['', '.5', '5.', '1,50', '1e3', 'abc', '1 000', '--1', Number.NaN, Number.POSITIVE_INFINITY, 1e21]) {
      expect(() => toCents(value), String(value)).toThrow();
    }
    expect(() => toCents('99999999999999999')).toThrow(/too large/);
  });

  it('rounds only when asked', () => {
    expect(toCentsRounded('1.005')).toBe(101);
    expect(toCentsRounded('1.004')).toBe(100);
    expect(toCentsRounded('-1.005')).toBe(-101);
    expect(toCentsRounded('2.345', { rounding: 'half-even' })).toBe(234);
    expect(toCentsRounded('2.355', { rounding: 'half-even' })).toBe(236);
    expect(toCentsRounded('2.359', { rounding: 'down' })).toBe(235);
    expect(toCentsRounded('12.3')).toBe(1230);
  });
});

describe('cents out', () => {
  it('decimal strings', () => {
    expect(centsToDecimalString(123450)).toBe('1234.50');
    expect(centsToDecimalString(5)).toBe('0.05');
    expect(centsToDecimalString(0)).toBe('0.00');
    expect(centsToDecimalString(-5)).toBe('-0.05');
    expect(centsToDecimalString(-123401)).toBe('-1234.01');
    expect(centsToDecimalString(999_999_999_999_999)).toBe('9999999999999.99');
    expect(() => centsToDecimalString(1.5)).toThrow();
  });

  it('JSON numbers equal the parsed decimal', () => {
    expect(centsToNumber(123450)).toBe(1234.5);
    expect(centsToNumber(29)).toBe(0.29);
    expect(centsToNumber(1)).toBe(0.01);
    for (let cents = 0; cents < 100_000; cents += 7) {
      expect(centsToNumber(cents)).toBe(Number(centsToDecimalString(cents)));
      expect(toCents(centsToNumber(cents))).toBe(cents);
    }
  });
});

describe('percentOfCents', () => {
  it('is exact to the cent with one rounding', () => {
    expect(percentOfCents(100001, '80.00')).toBe(80001); // 800.008 → 800.01
    expect(percentOfCents(100000, '80.00')).toBe(80000);
    expect(percentOfCents(123456, '1.500')).toBe(1852); // 18.5184
    expect(percentOfCents(100, '0.5')).toBe(1); // 0.005 → 0.01, half-up
    expect(percentOfCents(100, '0.5', { rounding: 'half-even' })).toBe(0);
    expect(percentOfCents(100, '0.5', { rounding: 'down' })).toBe(0);
    expect(percentOfCents(-100001, '80')).toBe(-80001);
    expect(percentOfCents(999_999_999_999_999, '90.00')).toBe(899_999_999_999_999);
    expect(percentOfCents(12345, 75)).toBe(9259); // 92.5875
    expect(percentOfCents(0, '80.00')).toBe(0);
  });
});

describe('sumCents', () => {
  it('sums exactly and refuses fractions', () => {
    expect(sumCents([10, 20, 30])).toBe(60);
    expect(sumCents([])).toBe(0);
    // 0.1 + 0.2 as floats is 0.30000000000000004; as cents it is 30.
    expect(sumCents([toCents('0.10'), toCents('0.20')])).toBe(30);
    expect(() => sumCents([1, 0.5])).toThrow();
    expect(() => sumCents([Number.MAX_SAFE_INTEGER, 1])).toThrow(/too large/);
  });
});

describe('factoring fee', () => {
  it('counts every started 30 days, at least one', () => {
    expect(feePeriods(0)).toBe(1);
    expect(feePeriods(-5)).toBe(1);
    expect(feePeriods(30)).toBe(1);
    expect(feePeriods(31)).toBe(2);
    expect(feePeriods(90)).toBe(3);
  });

  it('charges the rate per period on the invoice amount, rounded once', () => {
    expect(factoringFeeCents(100000, '1.500', 45)).toBe(3000); // 1000 × 1.5 % × 2
    expect(factoringFeeCents(123457, '1.750', 61)).toBe(6481); // 1234.57 × 1.75 % × 3 = 64.814925
    expect(factoringFeeCents(123458, '1.750', 61)).toBe(6482); // 64.81545 rounds up
    expect(factoringFeeCents(100001, '2.500', 10)).toBe(2500); // 25.000250
  });
});
