import { factorAccount } from '../banking/factor-account.server.ts';
import { isValidOib } from '../utils/validation.ts';
import { DEFAULT_FACTOR_KPD_CODE, isKpd2025Code } from './kpd.ts';

/**
 * The factor as the seller of its own e-invoices: name, IBAN and BIC of its
 * account (FACTOR_NAME, FACTOR_IBAN, FACTOR_BIC, app/banking), its OIB
 * (FACTOR_OIB), its seat (FACTOR_ADDRESS, "street, postal code city") and
 * the KPD 2025 code of its service (FACTOR_KPD_CODE, app/einvoices/kpd.ts).
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
  /** KPD 2025 classification of the fee line (ItemClassificationCode listID="CG"). */
  kpdCode: string;
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
  const kpdCode = env.FACTOR_KPD_CODE?.trim() || DEFAULT_FACTOR_KPD_CODE;
  if (!isKpd2025Code(kpdCode)) throw new Error(`FACTOR_KPD_CODE is not a KPD 2025 code of the official list: ${kpdCode}`);
  return { ...account, oib, street: match[1].trim(), postalCode: match[2], city: match[3].trim(), countryCode: 'HR', kpdCode };
}
