import { selectRows } from '../../app/db.server.ts';

/**
 * Independent arithmetic for tests of the client's account
 * (docs/money.md#the-clients-account): figures computed here, not by the code
 * under test.
 */

/** a / b rounded half-up, for non-negative integers. */
export const roundHalfUp = (numerator: number, denominator: number) => Math.floor((2 * numerator + denominator) / (2 * denominator));

/** A NUMERIC text as integer cents. */
export const cents = (value: string | null) => Math.round(Number(value ?? '0') * 100);

/** The invoice's ledger entries summed per kind, in cents. */
export async function kindSums(invoiceId: string): Promise<Record<string, number>> {
  const rows = await selectRows<{ kind: string; total: string }>(`SELECT kind, sum(amount) AS total FROM client_ledger WHERE invoice_id = :invoiceId GROUP BY kind`, { invoiceId });
  return Object.fromEntries(rows.map((row) => [row.kind, cents(row.total)]));
}
