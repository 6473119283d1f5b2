import type { Sequelize } from 'sequelize';
import { oibCheckDigit } from '../app/utils/validation.ts';

/**
 * The money writes, timed: financing an approved invoice (eligibility under
 * locks, the ledger, the payout, the fee e-invoice) and confirming the
 * debtor's payment that settles it (the collection, the final fee and its
 * document, the reserve release). Each operation changes state, so the bench
 * cannot replay one URL: it prepares `count` invoices that pass every check
 * and runs each operation once per invoice, `concurrency` at a time.
 */

export interface WriteRow {
  target: string;
  concurrency: number;
  operations: number;
  operationsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
}

/** Debtors of the invoices the write bench finances: new to the book, so no aged financed invoice of theirs refuses them. */
const BENCH_DEBTORS = 100;

/**
 * Makes `count` approved invoices financeable: their clients active with KYC
 * done, an IBAN, room in their limit and a signed agreement without a
 * concentration cap; their debtors the bench's own, added once (the book's own
 * debtors all carry invoices financed long ago and unpaid, which the
 * cross-ageing check refuses), unblocked with room in their limit; issued 10
 * days ago and due in 30. Returns their ids. Runs before the web starts.
 */
export async function prepareFinanceable(sequelize: Sequelize, count: number): Promise<string[]> {
  const oibs = `{${Array.from({ length: BENCH_DEBTORS }, (_, n) => benchDebtorOib(n)).join(',')}}`;
  await sequelize.query(
    `INSERT INTO customers (company_name, oib, address, city, postal_code, email, iban, credit_limit)
     SELECT 'Bench dužnik ' || g || ' d.o.o.', oib, 'Bench ' || g, 'Zagreb', '10000', 'bench-debtor' || g || '@primjer.hr', 'HR1210010051863000160', 1000000000
       FROM unnest(CAST(:oibs AS text[])) WITH ORDINALITY AS d(oib, g)
     ON CONFLICT (oib) DO NOTHING`,
    { replacements: { oibs } },
  );
  const [rows] = (await sequelize.query(
    `WITH debtors AS (
       SELECT id, row_number() OVER (ORDER BY oib) - 1 AS n FROM customers WHERE oib = ANY(CAST(:oibs AS text[]))
     ), picked AS (
       SELECT i.id, i.client_id, (row_number() OVER (ORDER BY i.id) - 1) % ${BENCH_DEBTORS} AS n FROM invoices i
        WHERE i.status = 'approved' AND i.currency = 'EUR' ORDER BY i.id LIMIT :count
     ), invoices_updated AS (
       UPDATE invoices i SET issue_date = current_date - 10, due_date = current_date + 30, customer_id = d.id
         FROM picked p JOIN debtors d ON d.n = p.n WHERE i.id = p.id RETURNING i.id
     ), clients_updated AS (
       UPDATE clients c SET status = 'active', onboarding_status = 'completed', credit_limit = 1000000000
        WHERE c.id IN (SELECT client_id FROM picked) RETURNING c.id
     ), agreements_updated AS (
       UPDATE agreements a SET concentration_limit = 100
        WHERE a.client_id IN (SELECT client_id FROM picked) AND a.signature_status = 'signed' RETURNING a.id
     ), customers_updated AS (
       UPDATE customers c SET account_blocked = false, blockage_reason = NULL, credit_limit = 1000000000
        WHERE c.id IN (SELECT id FROM debtors) RETURNING c.id
     )
     SELECT (SELECT array_agg(id) FROM invoices_updated) AS ids, (SELECT count(*) FROM clients_updated) AS clients,
            (SELECT count(*) FROM agreements_updated) AS agreements, (SELECT count(*) FROM customers_updated) AS customers`,
    { replacements: { count, oibs } },
  )) as [Array<{ ids: string[] | null }>, unknown];
  await sequelize.query(
    `INSERT INTO agreements (client_id, number, version, effective_from, valid_from, advance_rate, fee_model, fee_rate,
                             minimum_fee, admin_fee, recourse, recourse_days, max_tenor_days, concentration_limit, signature_status, signed_on)
     SELECT c.id, 'UF-BENCH-' || left(c.id::text, 8), 1, current_date - 365, current_date - 365, 80, 'interest_365', 9.5,
            20, 5, true, 60, 365, 100, 'signed', current_date - 365
       FROM clients c
      WHERE c.id IN (SELECT client_id FROM invoices WHERE id = ANY(CAST(:ids AS uuid[])))
        AND NOT EXISTS (SELECT 1 FROM agreements a WHERE a.client_id = c.id AND a.signature_status = 'signed')`,
    { replacements: { ids: `{${(rows[0].ids ?? []).join(',')}}` } },
  );
  return rows[0].ids ?? [];
}

/** A valid OIB (ten digits and ISO 7064 MOD 11,10's check digit) for the bench's nth debtor, outside the book's ranges. */
function benchDebtorOib(n: number): string {
  const first10 = String(9000000000 + n);
  return first10 + oibCheckDigit(first10);
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function timed(items: string[], concurrency: number, run: (item: string) => Promise<Response>) {
  const latencies: number[] = [];
  let errors = 0;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) {
        const item = items[next++];
        const begin = performance.now();
        const response = await run(item);
        await response.arrayBuffer();
        latencies.push(performance.now() - begin);
        if (!response.ok) errors += 1;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { operationsPerSecond: Math.round(items.length / seconds), p50: Math.round(percentile(latencies, 50)), p99: Math.round(percentile(latencies, 99)), errors };
}

/** Finances every prepared invoice, then records and confirms a payment of its whole amount. */
export async function measureWrites(url: string, cookie: string, ids: string[], concurrency: number): Promise<WriteRow[]> {
  const headers = { cookie, 'content-type': 'application/json', origin: url };
  const finance = await timed(ids, concurrency, (id) => fetch(`${url}/api/invoices/${id}/finance`, { method: 'PUT', headers }));
  const payments: string[] = [];
  for (const id of ids) {
    const invoice = (await (await fetch(`${url}/api/invoices/${id}`, { headers })).json()) as { amount: number; status: string };
    if (invoice.status !== 'financed') continue;
    const response = await fetch(`${url}/api/payments`, { method: 'POST', headers, body: JSON.stringify({ invoiceId: id, amount: invoice.amount, reference: 'HR00 BENCH' }) });
    if (response.ok) payments.push(((await response.json()) as { id: string }).id);
  }
  const confirm = await timed(payments, concurrency, (id) => fetch(`${url}/api/payments/${id}/confirm`, { method: 'PUT', headers }));
  return [
    { target: 'PUT /api/invoices/{id}/finance', concurrency, operations: ids.length, ...finance },
    { target: 'PUT /api/payments/{id}/confirm (settling)', concurrency, operations: payments.length, ...confirm },
  ];
}
