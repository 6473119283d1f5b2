import type { Migration } from '../migrate.ts';

/**
 * The ageing report (docs/collections.md#ageing) sums the open book per
 * client or per customer in one pass over the financed invoices. These
 * partial indexes hold exactly what it reads (party, due date, amount, paid
 * amount) in party order, so the pass is an index-only scan feeding a
 * streaming aggregate, without touching the invoice rows or sorting them
 * (docs/benchmarks.md, the ageing report). The drill-down of one party reads
 * the same index.
 */
export const up: Migration = async ({ context: db }) => {
  await db.query(/* sql */ `
    CREATE INDEX invoices_ageing_client_idx ON invoices (client_id) INCLUDE (due_date, amount, paid_amount) WHERE status = 'financed';
    CREATE INDEX invoices_ageing_customer_idx ON invoices (customer_id) INCLUDE (due_date, amount, paid_amount) WHERE status = 'financed';
  `);
};

export const down: Migration = async ({ context: db }) => {
  await db.query(/* sql */ `
    DROP INDEX IF EXISTS invoices_ageing_client_idx;
    DROP INDEX IF EXISTS invoices_ageing_customer_idx;
  `);
};
