import fs from 'node:fs';
import { selectOne, selectRows } from '../db.server.ts';

/** The e-invoice fixture and its parties' OIBs, and what a refused operation must leave as it was, for the invoice tests (used by *.test.ts only); their parties and invoices are made by tests/factories.ts. */

export const FIXTURE = fs.readFileSync(new URL('../einvoices/fixtures/valid-invoice.xml', import.meta.url), 'utf8');
export const SELLER_OIB = '47120589305';
export const BUYER_OIB = '88204135760';

/** Half-up rounding of an exact integer ratio (independent of app/utils/money.ts). */
export function roundRatio(numerator: bigint, denominator: bigint): number {
  return Number((numerator * 2n + denominator) / (2n * denominator));
}

/** Everything a refused operation must leave as it was: the invoice, its parties' used credits, payouts, ledger rows, fee e-invoices, the activity log. */
export async function snapshot(invoiceId: string, clientId: string) {
  return {
    invoice: await selectOne('SELECT * FROM invoices WHERE id = :invoiceId', { invoiceId }),
    client: await selectOne('SELECT * FROM clients WHERE id = :clientId', { clientId }),
    customer: await selectOne('SELECT c.* FROM customers c JOIN invoices i ON i.customer_id = c.id WHERE i.id = :invoiceId', { invoiceId }),
    payouts: await selectRows('SELECT * FROM payouts WHERE invoice_id = :invoiceId', { invoiceId }),
    ledger: await selectRows('SELECT * FROM client_ledger WHERE invoice_id = :invoiceId OR client_id = :clientId', { invoiceId, clientId }),
    einvoices: await selectRows('SELECT id FROM outgoing_einvoices WHERE invoice_id = :invoiceId', { invoiceId }),
    activity: (await selectOne<{ n: number }>('SELECT count(*)::int AS n FROM activity_logs'))!.n,
  };
}

export async function storedCounts() {
  return selectOne(
    `SELECT (SELECT count(*)::int FROM invoices) AS invoices, (SELECT count(*)::int FROM invoice_lines) AS lines,
            (SELECT count(*)::int FROM documents) AS documents, (SELECT count(*)::int FROM customers) AS customers,
            (SELECT count(*)::int FROM activity_logs) AS activity`,
  );
}
