import * as z from 'zod';
import { toCents } from './money.ts';

/**
 * Croatian identifiers and the shared field schemas built on them. Used by the
 * browser (conform) and the server alike, so nothing here may import node-only
 * modules.
 */

const OIB_FORMAT = /^\d{11}$/;
const HR_IBAN_FORMAT = /^HR\d{19}$/;
const POSTAL_CODE_FORMAT = /^\d{5}$/;

/**
 * The check digit of an OIB by ISO 7064 MOD 11,10 (the rule the Tax
 * Administration publishes for OIB) from its first ten digits.
 */
export function oibCheckDigit(first10: string): number {
  if (!/^\d{10}$/.test(first10)) throw new RangeError(`oibCheckDigit needs 10 digits, got ${JSON.stringify(first10)}`);
  let remainder = 10;
  for (const char of first10) {
    remainder = (remainder + Number(char)) % 10;
    if (remainder === 0) remainder = 10;
    remainder = (remainder * 2) % 11;
  }
  const check = 11 - remainder;
  return check === 10 ? 0 : check;
}

/** Exactly 11 digits whose last digit is the MOD 11,10 check digit of the first ten. */
export function isValidOib(value: unknown): boolean {
  if (typeof value !== 'string' || !OIB_FORMAT.test(value)) return false;
  return oibCheckDigit(value.slice(0, 10)) === Number(value[10]);
}

/** Removes spaces (people copy IBANs in groups of four) and upper-cases. */
export function normalizeIban(value: string): string {
  return value.replace(/\s+/g, '').toUpperCase();
}

/** ISO 13616: move the country and check digits to the end, letters to numbers, mod 97. */
export function ibanMod97(iban: string): number {
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const char of rearranged) {
    const code = char.charCodeAt(0);
    // A–Z count as 10–35; digits as themselves.
    const digits = code >= 65 && code <= 90 ? String(code - 55) : char;
    for (const digit of digits) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder;
}

/**
 * A Croatian IBAN: HR, two check digits, a 7-digit bank code and a 10-digit
 * account (21 characters), whose MOD-97 is 1. Spaces and lower case are
 * accepted because `normalizeIban` removes them first.
 */
export function isValidCroatianIban(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  const iban = normalizeIban(value);
  return HR_IBAN_FORMAT.test(iban) && ibanMod97(iban) === 1;
}

/** Builds the Croatian IBAN of a bank code (VBDI, 7 digits) and account (10 digits) with correct check digits. */
export function croatianIban(bankCode7: string, account10: string): string {
  if (!/^\d{7}$/.test(bankCode7)) throw new RangeError(`bank code must be 7 digits, got ${JSON.stringify(bankCode7)}`);
  if (!/^\d{10}$/.test(account10)) throw new RangeError(`account must be 10 digits, got ${JSON.stringify(account10)}`);
  const check = 98 - ibanMod97(`HR00${bankCode7}${account10}`);
  return `HR${String(check).padStart(2, '0')}${bankCode7}${account10}`;
}

export function isValidPostalCode(value: unknown): boolean {
  return typeof value === 'string' && POSTAL_CODE_FORMAT.test(value);
}

const emailCheck = z.email();

/** The same rule as the zod email schemas below, so a value accepted by one is accepted by the other. */
export function isValidEmail(value: unknown): boolean {
  return typeof value === 'string' && value.length <= 255 && emailCheck.safeParse(value).success;
}

// ---------------------------------------------------------------------------
// zod field schemas. Each takes the form's own message (the spec gives each
// form its own texts, or i18n keys). A value with the wrong shape gets only the
// format message: the check-digit refinement passes it, so the user sees one
// error at a time.

/** Exactly 11 digits (`message`), then the check digit (`checksumMessage`, defaults to `message`). */
export function oibSchema(message: string, checksumMessage: string = message) {
  return z
    .string({ error: message })
    .trim()
    .regex(OIB_FORMAT, { message })
    .refine((value) => !OIB_FORMAT.test(value) || isValidOib(value), { message: checksumMessage });
}

/**
 * HR + 19 digits (`message`), then MOD-97 (`checksumMessage`). Spaces are
 * removed and letters upper-cased first, so the parsed value is the stored form.
 */
export function ibanSchema(message: string, checksumMessage: string = message) {
  return z
    .string({ error: message })
    .overwrite(normalizeIban)
    .regex(HR_IBAN_FORMAT, { message })
    .refine((value) => !HR_IBAN_FORMAT.test(value) || isValidCroatianIban(value), { message: checksumMessage });
}

export function postalCodeSchema(message: string) {
  return z.string({ error: message }).trim().regex(POSTAL_CODE_FORMAT, { message });
}

/** Lower-cased, as the users table requires and as lookups by email expect. */
export function emailSchema(message: string) {
  return z.string({ error: message }).trim().toLowerCase().max(255, { message }).pipe(z.email({ message }));
}

/**
 * A non-empty trimmed string of at most `max` characters (docs/domain-model.md#validation: names
 * 255, notes 5,000) that refuses control characters and broken Unicode
 * (`isSingleLineText`; `multiline` lets line breaks and tabs through).
 */
export function requiredString(message: string, options: { max?: number; maxMessage?: string; multiline?: boolean; invalidMessage?: string } = {}) {
  const max = options.max ?? 255;
  return plainText(
    z
      .string({ error: message })
      .trim()
      .min(1, { message })
      .max(max, { message: options.maxMessage ?? message }),
    { multiline: options.multiline, message: options.invalidMessage },
  );
}

// ---------------------------------------------------------------------------
// Text, calendar days and instants: the rules every schema builds on, so that
// no form and no API call can store what PostgreSQL refuses (a NUL byte) or
// what would corrupt on the way (a lone UTF-16 surrogate becomes U+FFFD), and
// no impossible date reaches a query.

export const INPUT_ERRORS = {
  invalidCharacters: 'validation.invalidCharacters',
} as const;

/** C0 controls, DEL and C1 controls. */
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTER = /[\u0000-\u001F\u007F-\u009F]/;
/** The same without tab, line feed and carriage return, which multi-line text (notes, bodies) may hold. */
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTER_BUT_LINE_BREAKS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
/** A high surrogate without its low half, or a low one without its high half: not a character at all. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Text of one line: no control character (not even a line break) and no lone surrogate. */
export function isSingleLineText(value: string): boolean {
  return !CONTROL_CHARACTER.test(value) && !LONE_SURROGATE.test(value);
}

/** Text of several lines: tab, LF and CR allowed; every other control character and lone surrogates refused. */
export function isMultiLineText(value: string): boolean {
  return !CONTROL_CHARACTER_BUT_LINE_BREAKS.test(value) && !LONE_SURROGATE.test(value);
}

/** Adds the character rule to a string schema (single line unless `multiline`), with the form's own message if it has one. */
export function plainText<T extends z.ZodString>(schema: T, options: { multiline?: boolean; message?: string } = {}): T {
  const check = options.multiline ? isMultiLineText : isSingleLineText;
  return schema.refine(check, { message: options.message ?? INPUT_ERRORS.invalidCharacters }) as T;
}

/** A trimmed single-line string of at most `max` characters, possibly empty (the optional fields of a form). */
export function textSchema(message: string, options: { max?: number; multiline?: boolean; invalidMessage?: string } = {}) {
  return plainText(
    z
      .string({ error: message })
      .trim()
      .max(options.max ?? 255, { message }),
    { multiline: options.multiline, message: options.invalidMessage },
  );
}

const DAY_FORMAT = /^(\d{4})-(\d{2})-(\d{2})$/;

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function isRealDay(year: number, month: number, day: number): boolean {
  return year >= 1 && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

/** 'YYYY-MM-DD' naming a day that exists: not 2026-02-30, not 9999-99-99, not year 0 (PostgreSQL has none). */
export function isCalendarDate(value: string): boolean {
  const match = DAY_FORMAT.exec(value);
  return match !== null && isRealDay(Number(match[1]), Number(match[2]), Number(match[3]));
}

/** A calendar day as a date input sends it ('YYYY-MM-DD'). */
export function calendarDateSchema(message: string) {
  return z.string({ error: message }).trim().refine(isCalendarDate, { message });
}

const MIN_TIMESTAMP_YEAR = 1000;
const TIMESTAMP_FORMAT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/;

export interface ParsedTimestamp {
  /** The instant; for a value without a zone, the wall-clock time read as UTC (the caller applies its zone). */
  date: Date;
  /** True when the value carries no zone (a datetime-local input): the caller decides whose wall clock it is. */
  local: boolean;
}

/**
 * An ISO 8601 date and time ('2026-11-22T10:00', '…:00.000Z', '…+01:00') whose
 * every part exists: month 1–12, a day of that month, hour 0–23, minute and
 * second 0–59, an offset of at most 14 hours, a year from 1000 to 9999 both
 * as written and in UTC (so that neither a zone shift nor toISOString can
 * produce year 0 or a five-digit year). Null for anything else, so an
 * impossible instant never reaches a query (PostgreSQL would refuse it with
 * an error, and Date.parse quietly rolls 30 February into March).
 */
export function parseTimestamp(value: string): ParsedTimestamp | null {
  const match = TIMESTAMP_FORMAT.exec(value);
  if (!match) return null;
  const [, y, mo, d, h, mi, s = '0', fraction = '', zone] = match;
  const [year, month, day, hour, minute, second] = [y, mo, d, h, mi, s].map(Number);
  if (year < MIN_TIMESTAMP_YEAR || !isRealDay(year, month, day) || hour > 23 || minute > 59 || second > 59) return null;
  let offsetMinutes = 0;
  if (zone && zone !== 'Z') {
    const digits = zone.slice(1).replace(':', '');
    const offsetHours = Number(digits.slice(0, 2));
    const offsetRest = Number(digits.slice(2) || '0');
    if (offsetHours > 14 || offsetRest > 59) return null;
    offsetMinutes = (zone[0] === '-' ? -1 : 1) * (offsetHours * 60 + offsetRest);
  }
  const millis = Number(fraction.padEnd(3, '0').slice(0, 3));
  const date = new Date(Date.UTC(year, month - 1, day, hour, minute, second, millis) - offsetMinutes * 60_000);
  // A local value is shifted by its caller's zone, at most a day either way.
  const utcYear = date.getUTCFullYear();
  if (utcYear < MIN_TIMESTAMP_YEAR - 1 || utcYear > 9999) return null;
  return { date, local: zone === undefined };
}

export function isTimestamp(value: string): boolean {
  return parseTimestamp(value) !== null;
}

/** A date and time ('YYYY-MM-DDTHH:MM[:SS[.fff]]' with an optional zone); the string is kept as sent. */
export function timestampSchema(message: string) {
  return z.string({ error: message }).trim().refine(isTimestamp, { message });
}

/**
 * A positive money amount, to the cent (spec: "decimals to 0.01"), from a form
 * string ('1234.5') or a JSON number (1234.5). Parses to integer cents so no
 * float ever reaches the arithmetic; `max` is in cents and defaults to what
 * NUMERIC(15,2) holds.
 */
export function amountCentsSchema(message: string, options: { max?: number; allowZero?: boolean } = {}) {
  const max = options.max ?? 999_999_999_999_999;
  return z.union([z.string(), z.number()], { error: message }).transform((value, ctx) => {
    let cents: number;
    try {
      cents = toCents(typeof value === 'string' ? value.trim() : value);
    } catch {
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    }
    if (cents < 0 || (cents === 0 && !options.allowZero) || cents > max) {
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    }
    return cents;
  });
}

/**
 * A row id as PostgreSQL writes it (gen_random_uuid), any version, either
 * case: the one pattern every id check uses. Anything else names no row, so a
 * lookup answers 404 (or a field 400) instead of reaching SQL with it.
 */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID_PATTERN.test(value);
}
