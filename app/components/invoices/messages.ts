import { INVOICE_MESSAGE_KEYS } from '~/invoices/schemas.ts';
import { refusalText } from '~/utils/refusals.ts';

/**
 * The invoice domain answers refusals in English (docs/api.md#errors: API texts);
 * the page shows them in the chosen language. Fixed texts map one to one;
 * the ones that carry figures or names are matched by their shape. A message
 * of another shape (e.g. an e-invoice rule 'BR-CO-16: …') is shown as it came.
 */
type T = (key: string, options?: Record<string, unknown>) => string;

const PATTERNS: Array<[RegExp, string, string[]]> = [
  [/^Invoice is (\w+); cannot (\w+)$/, 'wrongState', ['status', 'verb']],
  [/^Four eyes: /, 'fourEyes', []],
  [/^Customer (.+) has a blocked account(?: \((.+)\))?; cannot (\w+) the invoice$/, 'blocked', ['name', 'reason', 'verb']],
  [/^Duplicate invoice: (.+) \((\w+)\) has the same client, customer, amount and issue date$/, 'duplicate', ['number', 'status']],
  [/^Duplicate invoice: number (.+) for this customer and amount is already (\w+) for (.+)$/, 'duplicateElsewhere', ['number', 'status', 'client']],
  [/^Only EUR invoices can be financed; this one is in (\w+)$/, 'notEur', ['currency']],
  [/^Client (.+) has no IBAN for the advance payout$/, 'noIban', ['name']],
  [/^Client (.+) has no credit limit; financing is not possible$/, 'noLimit', ['name']],
  [/^Credit limit exceeded: used credit ([\d.]+) \+ advance ([\d.]+) > limit ([\d.]+) EUR$/, 'limitExceeded', ['used', 'advance', 'limit']],
  [/^Advance ([\d.]+) plus fee ([\d.]+) would exceed the invoice amount ([\d.]+)$/, 'feeExceedsAmount', ['advance', 'fee', 'amount']],
  [/^The buyer is not a customer yet/, 'customerProposal', []],
];

const VERBS = new Set(['verify', 'approve', 'finance', 'reject']);
const STATUSES = new Set(['pending', 'verified', 'approved', 'rejected', 'financed', 'paid']);

export function invoiceMessage(t: T, message: string): string {
  const fixed = INVOICE_MESSAGE_KEYS[message];
  if (fixed) return t(fixed);
  for (const [pattern, key, names] of PATTERNS) {
    const match = pattern.exec(message);
    if (!match) continue;
    const params: Record<string, string> = {};
    names.forEach((name, index) => {
      const value = match[index + 1] ?? '';
      if (name === 'verb' && VERBS.has(value)) params[name] = t(`invoices.verbs.${value}`);
      else if (name === 'status' && STATUSES.has(value)) params[name] = t(`invoices.status.${value}`);
      else params[name] = value;
    });
    if (key === 'blocked' && params.reason) return t('invoices.refusals.blockedWithReason', params);
    return t(`invoices.refusals.${key}`, params);
  }
  return refusalText(t, () => true, message);
}
