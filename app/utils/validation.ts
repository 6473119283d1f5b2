import { z } from 'zod';
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
function ibanMod97(iban: string): number {
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

/** A non-empty trimmed string of at most `max` characters (DESIGN §9: names 255, notes 5,000). */
export function requiredString(message: string, options: { max?: number; maxMessage?: string } = {}) {
  const max = options.max ?? 255;
  return z
    .string({ error: message })
    .trim()
    .min(1, { message })
    .max(max, { message: options.maxMessage ?? message });
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
