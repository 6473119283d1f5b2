import { describe, expect, it } from 'vitest';
import {
  amountCentsSchema,
  croatianIban,
  emailSchema,
  ibanSchema,
  isValidCroatianIban,
  isValidEmail,
  isValidOib,
  isValidPostalCode,
  normalizeIban,
  oibCheckDigit,
  oibSchema,
  postalCodeSchema,
  requiredString,
} from './validation.ts';

describe('OIB', () => {
  it('accepts known valid OIBs', () => {
    expect(isValidOib('69435151530')).toBe(true);
    expect(isValidOib('94577403194')).toBe(true);
  });

  it('computes the ISO 7064 MOD 11,10 check digit', () => {
    expect(oibCheckDigit('6943515153')).toBe(0);
    expect(oibCheckDigit('9457740319')).toBe(4);
    expect(() => oibCheckDigit('123')).toThrow(RangeError);
  });

  it('refuses any single changed digit', () => {
    for (const valid of ['69435151530', '94577403194']) {
      for (let position = 0; position < 11; position++) {
        for (let digit = 0; digit <= 9; digit++) {
          if (String(digit) === valid[position]) continue;
          const changed = valid.slice(0, position) + digit + valid.slice(position + 1);
          expect(isValidOib(changed), changed).toBe(false);
        }
      }
    }
  });

  it('refuses wrong shapes', () => {
    for (const value of ['', '6943515153', '694351515300', '6943515153a', ' 69435151530', 69435151530, null]) {
      expect(isValidOib(value)).toBe(false);
    }
  });

  it('oibSchema reports the format message, then the check-digit message, one at a time', () => {
    const schema = oibSchema('OIB must be 11 digits', 'Invalid OIB');
    expect(schema.parse(' 69435151530 ')).toBe('69435151530');
    const short = schema.safeParse('123');
    expect(short.success).toBe(false);
    expect(short.error?.issues.map((issue) => issue.message)).toEqual(['OIB must be 11 digits']);
    const wrong = schema.safeParse('69435151531');
    expect(wrong.error?.issues.map((issue) => issue.message)).toEqual(['Invalid OIB']);
    expect(oibSchema('x').safeParse(undefined).error?.issues[0].message).toBe('x');
  });
});

describe('Croatian IBAN', () => {
  it('accepts a known valid IBAN, with or without spaces and in lower case', () => {
    expect(isValidCroatianIban('HR1210010051863000160')).toBe(true);
    expect(isValidCroatianIban('HR12 1001 0051 8630 0016 0')).toBe(true);
    expect(isValidCroatianIban('hr1210010051863000160')).toBe(true);
    expect(normalizeIban(' hr12 1001 0051 8630 0016 0 ')).toBe('HR1210010051863000160');
  });

  it('refuses changed digits, wrong length and other countries', () => {
    expect(isValidCroatianIban('HR1210010051863000161')).toBe(false);
    expect(isValidCroatianIban('HR1310010051863000160')).toBe(false);
    expect(isValidCroatianIban('HR121001005186300016')).toBe(false);
    expect(isValidCroatianIban('HR12100100518630001600')).toBe(false);
    expect(isValidCroatianIban('DE89370400440532013000')).toBe(false); // valid German IBAN
    expect(isValidCroatianIban('HR12100100518630001A0')).toBe(false);
    expect(isValidCroatianIban(undefined)).toBe(false);
  });

  it('builds IBANs with correct check digits', () => {
    expect(croatianIban('1001005', '1863000160')).toBe('HR1210010051863000160');
    for (const bank of ['2340009', '2360000', '2484008', '2402006', '2390001']) {
      const iban = croatianIban(bank, '1100123456');
      expect(iban).toHaveLength(21);
      expect(isValidCroatianIban(iban), iban).toBe(true);
    }
    // Check digits below 10 keep their leading zero.
    const all = Array.from({ length: 200 }, (_, i) => croatianIban('2340009', String(1_100_000_000 + i)));
    expect(all.some((iban) => iban.startsWith('HR0'))).toBe(true);
    expect(all.every(isValidCroatianIban)).toBe(true);
    expect(() => croatianIban('234', '1')).toThrow(RangeError);
  });

  it('ibanSchema normalises and reports format, then checksum', () => {
    const schema = ibanSchema('IBAN must be HR followed by 19 digits', 'Invalid IBAN');
    expect(schema.parse('hr12 1001 0051 8630 0016 0')).toBe('HR1210010051863000160');
    expect(schema.safeParse('HR12').error?.issues.map((issue) => issue.message)).toEqual([
      'IBAN must be HR followed by 19 digits',
    ]);
    expect(schema.safeParse('HR1210010051863000161').error?.issues.map((issue) => issue.message)).toEqual([
      'Invalid IBAN',
    ]);
  });
});

describe('postal code and email', () => {
  it('postal codes are exactly 5 digits', () => {
    expect(isValidPostalCode('10000')).toBe(true);
    expect(isValidPostalCode('52100')).toBe(true);
    for (const value of ['1000', '100000', '1000a', '', 10000]) expect(isValidPostalCode(value)).toBe(false);
    expect(postalCodeSchema('bad').safeParse('2100').success).toBe(false);
    expect(postalCodeSchema('bad').parse(' 21000 ')).toBe('21000');
  });

  it('emails', () => {
    expect(isValidEmail('ana.horvat@jadran-logistika.hr')).toBe(true);
    for (const value of ['', 'ana', 'ana@', '@x.hr', 'ana horvat@x.hr', 'ana@x', 'a'.repeat(251) + '@x.hr', null]) {
      expect(isValidEmail(value), String(value)).toBe(false);
    }
    expect(emailSchema('Invalid email format').parse(' Ana@Firma.HR ')).toBe('ana@firma.hr');
    expect(emailSchema('Invalid email format').safeParse('nope').error?.issues[0].message).toBe('Invalid email format');
  });

  it('requiredString trims and bounds', () => {
    const schema = requiredString('Company name is required');
    expect(schema.parse('  Jadran d.o.o. ')).toBe('Jadran d.o.o.');
    expect(schema.safeParse('   ').success).toBe(false);
    expect(schema.safeParse('x'.repeat(256)).success).toBe(false);
    expect(requiredString('r', { max: 5000 }).safeParse('x'.repeat(5000)).success).toBe(true);
  });
});

describe('amountCentsSchema', () => {
  const schema = amountCentsSchema('Amount is required');
  it('parses form strings and JSON numbers to cents', () => {
    expect(schema.parse('1234.5')).toBe(123450);
    expect(schema.parse(' 0.01 ')).toBe(1);
    expect(schema.parse(1234.56)).toBe(123456);
  });
  it('refuses more than two decimals, zero, negatives and junk', () => {
    for (const value of ['1.234', '0', '-5', 'abc', '', '1,5', 0.1 + 0.2, Number.NaN, 1e16]) {
      const result = schema.safeParse(value);
      expect(result.success, String(value)).toBe(false);
      expect(result.error?.issues[0].message).toBe('Amount is required');
    }
    expect(amountCentsSchema('x', { allowZero: true }).parse('0')).toBe(0);
  });
});
