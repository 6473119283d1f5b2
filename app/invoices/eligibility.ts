import type { RefusalParams } from '../utils/refusals.ts';

/**
 * The financing checks in the order they run (docs/money.md#eligibility): a
 * stable name each, shared by the server (eligibility.server.ts) and the
 * invoice page's panel. No server imports here.
 */
export const ELIGIBILITY_CHECKS = [
  'kyc',
  'agreement',
  'debtor_blocked',
  'dispute',
  'currency',
  'iban',
  'tenor',
  'past_due',
  'client_limit',
  'debtor_limit',
  'concentration',
  'cross_ageing',
  'fee_within_amount',
] as const;
export type EligibilityCheckName = (typeof ELIGIBILITY_CHECKS)[number];

/** One check as the panel shows it: passed (null: not evaluated without an agreement), the i18n key of its line and the figures. */
export interface EligibilityCheckView {
  name: EligibilityCheckName;
  passed: boolean | null;
  text: string;
  params: RefusalParams;
}

/** The panel's line per check and outcome (app/locales/{en,hr}/invoices.json, invoices.eligibility.checks). */
export const ELIGIBILITY_TEXTS = {
  kyc: 'invoices.eligibility.checks.kyc',
  agreement: 'invoices.eligibility.checks.agreement',
  noAgreement: 'invoices.eligibility.checks.noAgreement',
  debtorActive: 'invoices.eligibility.checks.debtorActive',
  debtorBlocked: 'invoices.eligibility.checks.debtorBlocked',
  // The debtor's side (app/locales/{en,hr}/debtors.json).
  notDisputed: 'debtors.eligibility.notDisputed',
  disputed: 'debtors.eligibility.disputed',
  currency: 'invoices.eligibility.checks.currency',
  iban: 'invoices.eligibility.checks.iban',
  noIban: 'invoices.eligibility.checks.noIban',
  tenor: 'invoices.eligibility.checks.tenor',
  pastDue: 'invoices.eligibility.checks.pastDue',
  clientLimit: 'invoices.eligibility.checks.clientLimit',
  clientNoLimit: 'invoices.eligibility.checks.clientNoLimit',
  debtorLimit: 'invoices.eligibility.checks.debtorLimit',
  debtorNoLimit: 'invoices.eligibility.checks.debtorNoLimit',
  concentration: 'invoices.eligibility.checks.concentration',
  concentrationNotApplied: 'invoices.eligibility.checks.concentrationNotApplied',
  crossAgeing: 'invoices.eligibility.checks.crossAgeing',
  feeWithinAmount: 'invoices.eligibility.checks.feeWithinAmount',
  needsAgreement: 'invoices.eligibility.checks.needsAgreement',
} as const;

/** The params that are amounts in EUR ('8000.00'): the panel shows them as 8.000,00 €. */
export const ELIGIBILITY_MONEY_PARAMS = ['used', 'advance', 'limit', 'onDebtor', 'total', 'threshold', 'aged', 'open', 'fee', 'amount'] as const;
