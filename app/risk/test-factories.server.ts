import { randomInt } from 'node:crypto';
import { execute } from '../db.server.ts';

/** Small hand-made books for the risk tests (used by *.test.ts only): rows straight into SQL. */

const oib = () => String(randomInt(10_000_000_000, 99_999_999_999));

export async function insertClient(values: { name?: string; foundedOn?: string | null; creditLimit?: string | null; usedCredit?: string } = {}) {
  const { rows } = await execute<{ id: string }>(
    `INSERT INTO clients (company_name, oib, status, founded_on, credit_limit, used_credit)
     VALUES (:name, :oib, 'active', :foundedOn, :creditLimit, :usedCredit) RETURNING id`,
    {
      name: values.name ?? `Klijent ${oib()} d.o.o.`,
      oib: oib(),
      foundedOn: values.foundedOn ?? null,
      creditLimit: values.creditLimit ?? null,
      usedCredit: values.usedCredit ?? '0',
    },
  );
  return rows[0].id;
}

export async function insertCustomer(values: { name?: string; foundedOn?: string | null; blocked?: boolean } = {}) {
  const { rows } = await execute<{ id: string }>(
    `INSERT INTO customers (company_name, oib, founded_on, account_blocked, blockage_reason)
     VALUES (:name, :oib, :foundedOn, :blocked, :reason) RETURNING id`,
    {
      name: values.name ?? `Kupac ${oib()} d.o.o.`,
      oib: oib(),
      foundedOn: values.foundedOn ?? null,
      blocked: values.blocked ?? false,
      reason: values.blocked ? 'Blokada računa (FINA)' : null,
    },
  );
  return rows[0].id;
}

let serial = 0;

/** A financed invoice (open), or a paid one when `paidAt` is given (paid in full at that moment). */
export async function insertInvoice(values: {
  clientId: string;
  customerId: string;
  amount: string;
  dueDate: string;
  paidAt?: string;
  status?: 'financed' | 'paid' | 'pending';
}) {
  const status = values.status ?? (values.paidAt ? 'paid' : 'financed');
  const financed = status !== 'pending';
  serial += 1;
  const { rows } = await execute<{ id: string }>(
    `INSERT INTO invoices (client_id, customer_id, invoice_number, status, amount, issue_date, due_date,
                           factor_amount, factor_fee, financed_at, paid_amount, paid_at)
     VALUES (:clientId, :customerId, :number, :status, :amount, CAST(:dueDate AS date) - 30, :dueDate,
             CASE WHEN :financed THEN round(CAST(:amount AS numeric) * 0.8, 2) END,
             CASE WHEN :financed THEN round(CAST(:amount AS numeric) * 0.015, 2) END,
             CASE WHEN :financed THEN CAST(:dueDate AS date) - 29 END,
             CASE WHEN :status = 'paid' THEN CAST(:amount AS numeric) ELSE 0 END, :paidAt)
     RETURNING id`,
    {
      clientId: values.clientId,
      customerId: values.customerId,
      number: `R-${Date.now()}-${serial}`,
      status,
      amount: values.amount,
      dueDate: values.dueDate,
      financed,
      paidAt: values.paidAt ?? null,
    },
  );
  return rows[0].id;
}

/** Empties the book (not the append-only activity log), so "the factor's whole book" is what a test made. */
export async function clearBook() {
  await execute(`DELETE FROM payments; DELETE FROM payouts; DELETE FROM invoices; DELETE FROM risk_assessments;`);
}
