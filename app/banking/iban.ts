import { ibanMod97 } from '../utils/validation.ts';

/**
 * IBAN check digits (ISO 13616 MOD-97) for any country: payout files may
 * carry foreign accounts, while app/utils/validation.ts checks the Croatian
 * form only (with the same MOD-97). Shared by browser and server.
 */
const IBAN_SHAPE = /^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$/;

export function normalizeAnyIban(value: string): string {
  return value.replace(/\s+/g, '').toUpperCase();
}

export function isValidIban(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  const iban = normalizeAnyIban(value);
  return IBAN_SHAPE.test(iban) && ibanMod97(iban) === 1;
}
