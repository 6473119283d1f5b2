import { factorAccount } from '../banking/factor-account.server.ts';
import { isValidOib } from '../utils/validation.ts';

/**
 * The factor as the seller of its own e-invoices: name, IBAN and BIC of its
 * account (FACTOR_NAME, FACTOR_IBAN, FACTOR_BIC, app/banking), its OIB
 * (FACTOR_OIB) and its seat (FACTOR_ADDRESS, "street, postal code city").
 * The defaults describe the demo company so a fresh install works; a
 * production deployment sets its own (README, environment).
 */
export interface FactorParty {
  name: string;
  oib: string;
  iban: string;
  bic: string;
  street: string;
  postalCode: string;
  city: string;
  countryCode: 'HR';
}

/** A valid OIB (ISO 7064 MOD 11,10) that no real company holds in the demo data. */
export const DEFAULT_FACTOR_OIB = '61803554827';
export const DEFAULT_FACTOR_ADDRESS = 'Radnička cesta 80, 10000 Zagreb';

const ADDRESS = /^([^,]+),\s*(\d{5})\s+(\S.*)$/;

export function factorParty(env: Record<string, string | undefined> = process.env): FactorParty {
  const account = factorAccount(env);
  const oib = env.FACTOR_OIB?.trim() || DEFAULT_FACTOR_OIB;
  if (!isValidOib(oib)) throw new Error(`FACTOR_OIB is not a valid OIB: ${oib}`);
  const address = env.FACTOR_ADDRESS?.trim() || DEFAULT_FACTOR_ADDRESS;
  const match = ADDRESS.exec(address);
  if (!match) throw new Error(`FACTOR_ADDRESS is not "street, postal code city": ${address}`);
  return { ...account, oib, street: match[1].trim(), postalCode: match[2], city: match[3].trim(), countryCode: 'HR' };
}
