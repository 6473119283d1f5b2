import fs from 'node:fs';
import { createTestUser } from '../auth/test-helpers.server.ts';
import { execute, selectOne, selectRows } from '../db.server.ts';
import { approveKyc } from '../onboarding/test-fixtures.server.ts';
import { croatianIban, oibCheckDigit } from '../utils/validation.ts';
import { createInvoice } from './invoice-create.server.ts';

/** Parties, invoices and snapshots for the invoice tests (used by *.test.ts only), made through the real invoice modules. */

export const FIXTURE = fs.readFileSync(new URL('../einvoices/fixtures/valid-invoice.xml', import.meta.url), 'utf8');
export const SELLER_OIB = '47120589305';
export const BUYER_OIB = '88204135760';
export const IBAN = croatianIban('2360000', '1102345678');

type Role = 'user' | 'manager' | 'admin' | 'super_admin';
const actorOf = (row: { id: string; role: Role }) => ({ id: row.id, role: row.role });
export async function staff(role: Role) {
  return actorOf(await createTestUser({ role }));
}

let serial = 2_000_000_000;
function newOib(): string {
  const base = String(serial++);
  return `${base}${oibCheckDigit(base)}`;
}

export async function insertClient(values: { oib?: string; creditLimit?: string | null; advanceRate?: string; feeRate?: string; iban?: string | null; name?: string } = {}) {
  const { rows } = await execute<{ id: string }>(
    `INSERT INTO clients (company_name, oib, iban, credit_limit, advance_rate, fee_rate, status)
     VALUES (:name, :oib, :iban, :creditLimit, :advanceRate, :feeRate, 'active') RETURNING id`,
    {
      name: values.name ?? `Klijent ${serial} d.o.o.`,
      oib: values.oib ?? newOib(),
      iban: values.iban === undefined ? IBAN : values.iban,
      creditLimit: values.creditLimit === undefined ? '100000.00' : values.creditLimit,
      advanceRate: values.advanceRate ?? '80.00',
      feeRate: values.feeRate ?? '1.500',
    },
  );
  // Financing needs the client's KYC approved.
  await approveKyc(rows[0].id);
  return rows[0].id;
}

export async function insertCustomer(values: { oib?: string; blocked?: boolean; name?: string } = {}) {
  const { rows } = await execute<{ id: string }>(
    `INSERT INTO customers (company_name, oib, account_blocked, blockage_reason)
     VALUES (:name, :oib, :blocked, CASE WHEN :blocked THEN 'FINA: blokada računa' END) RETURNING id`,
    { name: values.name ?? `Kupac ${serial} d.d.`, oib: values.oib ?? newOib(), blocked: values.blocked ?? false },
  );
  return rows[0].id;
}

/** The fixture's seller becomes this test's client: an earlier test's client with that OIB gets another OIB. */
export async function sellerClient(values: Parameters<typeof insertClient>[0] = {}) {
  await execute('UPDATE clients SET oib = :oib WHERE oib = :seller', { oib: newOib(), seller: SELLER_OIB });
  await execute('UPDATE customers SET oib = :oib WHERE oib = :buyer', { oib: newOib(), buyer: BUYER_OIB });
  return insertClient({ ...values, oib: SELLER_OIB });
}

/** 'YYYY-MM-DD' of today in Croatia, plus `days`, computed here without the code under test. */
export function zagrebDay(days = 0): string {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Zagreb', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
  const ms = Date.parse(`${today}T00:00:00Z`) + days * 86_400_000;
  return new Date(ms).toISOString().slice(0, 10);
}

/** Half-up rounding of an exact integer ratio (independent of app/utils/money.ts). */
export function roundRatio(numerator: bigint, denominator: bigint): number {
  return Number((numerator * 2n + denominator) / (2n * denominator));
}

// Read by tests that need an amount no earlier invoice of theirs has (a live binding: newInvoice advances it).
export let numberSerial = 1;
export async function newInvoice(
  actor: { id: string; role: Role },
  clientId: string,
  customerId: string,
  overrides: Partial<{ amount: number | string; issueDate: string; dueDate: string; invoiceNumber: string; description: string }> = {},
) {
  return createInvoice({
    actor,
    ip: '10.1.1.1',
    input: {
      clientId,
      customerId,
      invoiceNumber: overrides.invoiceNumber ?? `${numberSerial++}/1/1`,
      issueDate: overrides.issueDate ?? zagrebDay(-5),
      dueDate: overrides.dueDate ?? zagrebDay(55),
      amount: overrides.amount ?? 1000,
      description: overrides.description ?? 'Isporuka robe',
    },
  });
}

/** Everything a refused operation must leave as it was. */
export async function snapshot(invoiceId: string, clientId: string) {
  return {
    invoice: await selectOne('SELECT * FROM invoices WHERE id = :invoiceId', { invoiceId }),
    client: await selectOne('SELECT * FROM clients WHERE id = :clientId', { clientId }),
    payouts: await selectRows('SELECT * FROM payouts WHERE invoice_id = :invoiceId', { invoiceId }),
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
