import type { Transaction } from 'sequelize';
import { execute, selectRows } from '../db.server.ts';
import { SQL_BUSINESS_TODAY } from '../utils/business-time.ts';
import { centsToDecimalString, toCents } from '../utils/money.ts';
import type { LedgerKind } from '../../db/models/enums.ts';

/**
 * The client's account (docs/money.md#the-clients-account): every money
 * movement between the factor and a client, append-only, signed from the
 * factor's side (positive: the client owes it; negative: it owes the client).
 *
 * The used credit of a client and the exposure on a debtor are sums of this
 * ledger: per invoice, the advance still outstanding is the advance less the
 * collections received on it (collections repay the advance first), never
 * below zero; clients.used_credit and customers.used_credit hold those sums,
 * kept here, by the only writer of the ledger, in the writer's transaction.
 * `ledgerUsedCredit` recomputes them from the entries for reconciliation.
 */

export interface LedgerEntryInput {
  clientId: string;
  kind: LedgerKind;
  /** Signed cents from the factor's side; zero amounts are not written. */
  amountCents: number;
  /** A reference a reader recognises: the invoice, e-invoice or payment number, or the adjustment's reason. */
  description: string;
  createdBy: string | null;
  /** 'YYYY-MM-DD'; today in Croatia when omitted. */
  bookedOn?: string;
  currency?: string;
  invoiceId?: string | null;
  paymentId?: string | null;
  payoutId?: string | null;
  einvoiceId?: string | null;
  adjustmentId?: string | null;
}

/** The kinds whose sum per invoice is the advance still outstanding. */
const FUNDING_KINDS: LedgerKind[] = ['advance', 'collection'];

async function outstandingAdvances(invoiceIds: string[], transaction: Transaction) {
  const rows = await selectRows<{ invoice_id: string; client_id: string; customer_id: string; outstanding: string }>(
    `SELECT i.id AS invoice_id, i.client_id, i.customer_id,
            greatest(0, coalesce(sum(l.amount) FILTER (WHERE l.kind IN ('advance', 'collection')), 0)) AS outstanding
       FROM invoices i LEFT JOIN client_ledger l ON l.invoice_id = i.id
      WHERE i.id IN (:invoiceIds)
      GROUP BY i.id`,
    { invoiceIds },
    { transaction },
  );
  return new Map(rows.map((row) => [row.invoice_id, { ...row, cents: toCents(row.outstanding) }]));
}

/**
 * Writes the entries in the caller's transaction and moves the client's used
 * credit and the debtor's exposure by the change in each touched invoice's
 * outstanding advance. The caller holds the invoice, client and customer rows
 * locked (in that order), as financing and the payment transitions do.
 */
export async function postLedgerEntries(entries: LedgerEntryInput[], transaction: Transaction): Promise<Array<{ id: string; entryNumber: number }>> {
  const writing = entries.filter((entry) => entry.amountCents !== 0);
  if (writing.length === 0) return [];
  for (const entry of writing) {
    if (!Number.isSafeInteger(entry.amountCents)) throw new RangeError(`ledger amount is not whole cents: ${entry.amountCents}`);
  }
  const fundingInvoices = [...new Set(writing.filter((entry) => entry.invoiceId && FUNDING_KINDS.includes(entry.kind)).map((entry) => entry.invoiceId!))];
  const before = fundingInvoices.length > 0 ? await outstandingAdvances(fundingInvoices, transaction) : new Map();

  const values: string[] = [];
  const replacements: Record<string, unknown> = {};
  writing.forEach((entry, index) => {
    const p = (name: string) => `:${name}${index}`;
    values.push(
      `(${p('client')}, ${entry.bookedOn ? `CAST(${p('booked')} AS date)` : SQL_BUSINESS_TODAY}, ${p('kind')}, ${p('amount')}, ${p('currency')}, ` +
        `${p('invoice')}, ${p('payment')}, ${p('payout')}, ${p('einvoice')}, ${p('adjustment')}, ${p('description')}, ${p('by')})`,
    );
    Object.assign(replacements, {
      [`client${index}`]: entry.clientId,
      [`booked${index}`]: entry.bookedOn ?? null,
      [`kind${index}`]: entry.kind,
      [`amount${index}`]: centsToDecimalString(entry.amountCents),
      [`currency${index}`]: entry.currency ?? 'EUR',
      [`invoice${index}`]: entry.invoiceId ?? null,
      [`payment${index}`]: entry.paymentId ?? null,
      [`payout${index}`]: entry.payoutId ?? null,
      [`einvoice${index}`]: entry.einvoiceId ?? null,
      [`adjustment${index}`]: entry.adjustmentId ?? null,
      [`description${index}`]: entry.description.slice(0, 500),
      [`by${index}`]: entry.createdBy,
    });
  });
  const { rows } = await execute<{ id: string; entry_number: string | number }>(
    `INSERT INTO client_ledger (client_id, booked_on, kind, amount, currency, invoice_id, payment_id, payout_id, einvoice_id, adjustment_id, description, created_by)
     VALUES ${values.join(', ')} RETURNING id, entry_number`,
    replacements,
    { transaction },
  );

  if (fundingInvoices.length > 0) {
    const after = await outstandingAdvances(fundingInvoices, transaction);
    for (const [invoiceId, now] of after) {
      const delta = now.cents - (before.get(invoiceId)?.cents ?? 0);
      if (delta === 0) continue;
      const change = { delta: centsToDecimalString(delta) };
      await execute('UPDATE clients SET used_credit = used_credit + CAST(:delta AS numeric) WHERE id = :id', { ...change, id: now.client_id }, { transaction });
      await execute('UPDATE customers SET used_credit = used_credit + CAST(:delta AS numeric) WHERE id = :id', { ...change, id: now.customer_id }, { transaction });
    }
  }
  return rows.map((row) => ({ id: row.id, entryNumber: Number(row.entry_number) }));
}

/** SQL: the advance still outstanding per invoice, from the ledger alone (reconciliation and reports). */
export const SQL_OUTSTANDING_ADVANCE_BY_INVOICE = `
  SELECT invoice_id, greatest(0, sum(amount)) AS outstanding
    FROM client_ledger WHERE kind IN ('advance', 'collection') AND invoice_id IS NOT NULL
   GROUP BY invoice_id`;

/** The advances outstanding on the invoices of one client or one debtor, from the ledger alone. */
async function outstandingOf(column: 'client_id' | 'customer_id', id: string, options: { transaction?: Transaction }): Promise<number> {
  const [row] = await selectRows<{ used: string | null }>(
    `SELECT sum(o.outstanding) AS used FROM (${SQL_OUTSTANDING_ADVANCE_BY_INVOICE}) o JOIN invoices i ON i.id = o.invoice_id WHERE i.${column} = :id`,
    { id },
    options,
  );
  return toCents(row?.used ?? '0');
}

/** The used credit of a client recomputed from its ledger entries (what clients.used_credit must equal). */
export const ledgerUsedCredit = (clientId: string, options: { transaction?: Transaction } = {}) => outstandingOf('client_id', clientId, options);

/** The debtor's exposure recomputed from the ledger (what customers.used_credit must equal). */
export const ledgerDebtorExposure = (customerId: string, options: { transaction?: Transaction } = {}) => outstandingOf('customer_id', customerId, options);

/** The balance of one invoice's entries (after its reserve release it is zero). */
export async function invoiceLedgerBalance(invoiceId: string, options: { transaction?: Transaction } = {}): Promise<number> {
  const [row] = await selectRows<{ balance: string | null }>('SELECT sum(amount) AS balance FROM client_ledger WHERE invoice_id = :invoiceId', { invoiceId }, options);
  return toCents(row?.balance ?? '0');
}

/** The advance still outstanding on one invoice, from its ledger entries (advance less collections, never below zero). */
export async function invoiceOutstandingAdvance(invoiceId: string, options: { transaction?: Transaction } = {}): Promise<number> {
  const [row] = await selectRows<{ outstanding: string | null }>(
    `SELECT greatest(0, sum(amount)) AS outstanding FROM client_ledger WHERE invoice_id = :invoiceId AND kind IN ('advance', 'collection')`,
    { invoiceId },
    options,
  );
  return toCents(row?.outstanding ?? '0');
}
