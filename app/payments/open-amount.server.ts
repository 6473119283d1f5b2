/**
 * What a new payment may still cover on an invoice: its amount less the
 * confirmed payments (paid_amount), the credit notes (credited_amount, kept
 * by a trigger on credit_notes; docs/collections.md#dilution-and-disputes-resolved)
 * and the payments still waiting for confirmation (pending_amount, kept by
 * triggers on payments; migration 2026.11.25T05.00.00.invoice-number-search).
 * The one definition shared by the payable list (GET /api/invoices/payable,
 * the record-payment form, the bank-statement matching) and the check that
 * refuses an over-payment (recordPayment), so whatever the list offers can be
 * recorded.
 */

/**
 * The statuses whose invoice the debtor may still pay: financed, and charged
 * back (its collections are credited back to the client,
 * docs/collections.md#recourse-and-write-off).
 */
export const COLLECTIBLE_STATUSES = ['financed', 'charged_back'] as const;
const collectibleSql = (alias: string) => `${alias}.status IN (${COLLECTIBLE_STATUSES.map((status) => `'${status}'`).join(', ')})`;

/** Collectible and something left for a new payment. The partial index invoices_payable_idx has exactly this predicate. */
export const payableSql = (alias: string) => `${collectibleSql(alias)} AND ${alias}.amount > ${alias}.paid_amount + ${alias}.credited_amount + ${alias}.pending_amount`;

/** Collectible and not fully paid or credited: what the bank statement import matches against. */
export const openForMatchingSql = (alias: string) => `${collectibleSql(alias)} AND ${alias}.amount > ${alias}.paid_amount + ${alias}.credited_amount`;

export const isCollectible = (status: string) => (COLLECTIBLE_STATUSES as readonly string[]).includes(status);

/** The amount a new payment may still cover (never below zero). */
export const openForPaymentSql = (alias: string) => `greatest(${alias}.amount - ${alias}.paid_amount - ${alias}.credited_amount - ${alias}.pending_amount, 0)`;
