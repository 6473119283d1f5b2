import { describe, expect, it } from 'vitest';
import {
  amountCentsSchema,
  calendarDateSchema,
  croatianIban,
  emailSchema,
  ibanSchema,
  isValidCroatianIban,
  isValidEmail,
  isValidOib,
  isCalendarDate,
  isMultiLineText,
  isSingleLineText,
  isValidPostalCode,
  normalizeIban,
  oibCheckDigit,
  oibSchema,
  parseTimestamp,
  plainText,
  postalCodeSchema,
  requiredString,
  textSchema,
  timestampSchema,
} from './validation.ts';
import * as z from 'zod';

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
    expect(schema.safeParse('HR12').error?.issues.map((issue) => issue.message)).toEqual(['IBAN must be HR followed by 19 digits']);
    expect(schema.safeParse('HR1210010051863000161').error?.issues.map((issue) => issue.message)).toEqual(['Invalid IBAN']);
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

describe('text without control characters or broken Unicode', () => {
  const refusedEverywhere = ['a\u0000b', 'a\u0001b', '\u001B[31m', 'a\u007Fb', 'a\u0085b', 'a\u009Fb', 'a\uD800b', 'a\uDFFFb', '\uD83D', 'x\uDE00'];
  it('refuses NUL, other C0 and C1 controls, DEL and lone surrogates in single- and multi-line text', () => {
    for (const value of refusedEverywhere) {
      expect(isSingleLineText(value), JSON.stringify(value)).toBe(false);
      expect(isMultiLineText(value), JSON.stringify(value)).toBe(false);
    }
  });
  it('lets tab and line breaks through only where several lines are expected', () => {
    for (const value of ['a\nb', 'a\r\nb', 'a\tb']) {
      expect(isSingleLineText(value)).toBe(false);
      expect(isMultiLineText(value)).toBe(true);
    }
  });
  it('accepts Croatian letters, typographic quotes, euro signs and surrogate pairs (emoji)', () => {
    for (const value of ['Čćđšž ČĆĐŠŽ', '„Jadran“ d.o.o.', '1.000,00 €', 'ok 😀', '']) {
      expect(isSingleLineText(value), value).toBe(true);
      expect(isMultiLineText(value), value).toBe(true);
    }
  });
  it('the schema helpers name the problem in the field', () => {
    const schema = z.object({ name: requiredString('Name is required'), notes: textSchema('Too long', { max: 5000, multiline: true }) });
    const result = schema.safeParse({ name: 'a\u0000b', notes: 'line\u0007' });
    expect(result.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['name', 'validation.invalidCharacters'],
      ['notes', 'validation.invalidCharacters'],
    ]);
    expect(schema.parse({ name: ' N ', notes: 'one\ntwo' })).toEqual({ name: 'N', notes: 'one\ntwo' });
    expect(requiredString('r', { multiline: true }).safeParse('a\nb').success).toBe(true);
    expect(requiredString('r').safeParse('a\nb').success).toBe(false);
    expect(plainText(z.string(), { message: 'own' }).safeParse('\u0000').error?.issues[0].message).toBe('own');
  });
});

describe('calendar days and timestamps', () => {
  it('a day must exist', () => {
    for (const value of ['2026-01-31', '2024-02-29', '2026-12-31', '0001-01-01', '9999-12-31']) expect(isCalendarDate(value), value).toBe(true);
    for (const value of ['2026-02-30', '2025-02-29', '9999-99-99', '2026-13-01', '2026-00-10', '2026-04-31', '0000-01-01', '2026-1-1', '2026-01-01T00:00', ' 2026-01-01', '']) {
      expect(isCalendarDate(value), value).toBe(false);
    }
    expect(calendarDateSchema('Invalid date').safeParse('2026-02-30').error?.issues[0].message).toBe('Invalid date');
    expect(calendarDateSchema('Invalid date').parse(' 2026-02-28 ')).toBe('2026-02-28');
  });

  it('a timestamp must name an instant that exists', () => {
    expect(parseTimestamp('2026-11-22T10:00')).toEqual({ date: new Date('2026-11-22T10:00:00Z'), local: true });
    expect(parseTimestamp('2026-11-22T10:00:30.123456Z')).toEqual({ date: new Date('2026-11-22T10:00:30.123Z'), local: false });
    expect(parseTimestamp('2026-11-22T10:00:00+01:00')?.date.toISOString()).toBe('2026-11-22T09:00:00.000Z');
    expect(parseTimestamp('2026-11-22T10:00:00-0530')?.date.toISOString()).toBe('2026-11-22T15:30:00.000Z');
    expect(parseTimestamp('2024-02-29T23:59:59Z')?.date.toISOString()).toBe('2024-02-29T23:59:59.000Z');
    for (const value of [
      '2026-02-30T10:00',
      '9999-99-99T99:99',
      '2026-01-01T24:00',
      '2026-01-01T23:60',
      '2026-01-01T23:59:60',
      '2026-01-01T10:00+15:00',
      '2026-01-01T10:00+01:60',
      '9999-12-31T23:59-14:00',
      '0999-12-31T10:00Z',
      '2026-01-01',
      '2026-01-01 10:00',
      'tomorrow',
      '',
    ]) {
      expect(parseTimestamp(value), value).toBeNull();
    }
    expect(timestampSchema('Invalid date and time').safeParse('2026-02-30T10:00').error?.issues[0].message).toBe('Invalid date and time');
  });
});
