import { oibCheckDigit } from '../utils/validation.ts';

/**
 * The FINA sandbox's blockage rule (no server imports, so tests and the e2e
 * suite can pick OIBs): weighted = Σ digit[i] × (i + 1) over the 11 digits of
 * the OIB (i from 0, check digit included); the account is BLOCKED exactly
 * when weighted mod 10 === 7 — about one valid OIB in ten.
 */
export function sandboxAccountBlocked(oib: string): boolean {
  const weighted = [...oib].reduce((sum, digit, index) => sum + Number(digit) * (index + 1), 0);
  return weighted % 10 === 7;
}

/** `count` valid OIBs the FINA sandbox reports blocked (or not), deterministic for a seed. */
export function sandboxOibs(blocked: boolean, count: number, seed = 12345678): string[] {
  const found: string[] = [];
  for (let n = seed; found.length < count; n += 7919) {
    const first10 = String(n % 10_000_000_000).padStart(10, '0');
    const oib = first10 + oibCheckDigit(first10);
    if (sandboxAccountBlocked(oib) === blocked) found.push(oib);
  }
  return found;
}
