import { isValidIban, normalizeAnyIban } from './iban.ts';

/**
 * The factor's own bank account: the debtor of every SEPA payout file and the
 * account whose camt.053 statements are imported. Read from the environment
 * (FACTOR_IBAN, FACTOR_NAME, FACTOR_BIC) with demo defaults so a fresh
 * install works offline; the default IBAN is a valid Croatian one built with
 * croatianIban('2402006', '1100123456') (bank code of Erste&Steiermärkische).
 */
export interface FactorAccount {
  name: string;
  iban: string;
  bic: string;
}

const DEFAULTS: FactorAccount = { name: 'FinFlow Faktoring d.o.o.', iban: 'HR7224020061100123456', bic: 'ESBCHR22' };

const BIC = /^[A-Z]{6}[A-Z2-9][A-NP-Z0-9]([A-Z0-9]{3})?$/;

export function isValidBic(value: string): boolean {
  return BIC.test(value);
}

/** The configured account; a malformed setting fails loudly here rather than in the bank's validator. */
export function factorAccount(env: Record<string, string | undefined> = process.env): FactorAccount {
  const name = env.FACTOR_NAME?.trim() || DEFAULTS.name;
  const iban = normalizeAnyIban(env.FACTOR_IBAN?.trim() || DEFAULTS.iban);
  const bic = (env.FACTOR_BIC?.trim() || DEFAULTS.bic).toUpperCase();
  if (!isValidIban(iban)) throw new Error(`FACTOR_IBAN is not a valid IBAN: ${iban}`);
  if (!isValidBic(bic)) throw new Error(`FACTOR_BIC is not a valid BIC: ${bic}`);
  if (name.length > 140) throw new Error('FACTOR_NAME is longer than 140 characters');
  return { name, iban, bic };
}
