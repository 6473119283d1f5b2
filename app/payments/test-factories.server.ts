import { randomInt } from 'node:crypto';
import { createTestUser } from '../auth/test-helpers.server.ts';
import { execute, selectOne } from '../db.server.ts';
import { approveInvoice, verifyInvoice } from '../invoices/invoice-decisions.server.ts';
import { createInvoice } from '../invoices/invoice-create.server.ts';
import { financeInvoice } from '../invoices/financing.server.ts';
import { approveKyc } from '../onboarding/test-fixtures.server.ts';
import { croatianIban, oibCheckDigit } from '../utils/validation.ts';

/** A small book for the payment tests (used by *.test.ts only): invoices financed through the real invoices module. */

type Role = 'user' | 'manager' | 'admin' | 'super_admin';
export async function staff(role: Role) {
  const row = await createTestUser({ role });
  return { id: row.id, role: row.role as Role };
}

function newOib(): string {
  const base = String(randomInt(1_000_000_000, 9_999_999_999));
  return `${base}${oibCheckDigit(base)}`;
}

export function newIban(): string {
  return croatianIban('2484008', String(randomInt(1_000_000_000, 9_999_999_999)));
}

export async function insertClient(values: { creditLimit?: string; usedCredit?: string; advanceRate?: string; feeRate?: string } = {}) {
  const name = `Klijent ${randomInt(1e6, 9e6)} d.o.o.`;
  const iban = newIban();
  const { rows } = await execute<{ id: string }>(
    `INSERT INTO clients (company_name, oib, iban, credit_limit, used_credit, advance_rate, fee_rate, status)
     VALUES (:name, :oib, :iban, :limit, :used, :advance, :fee, 'active') RETURNING id`,
    { name, oib: newOib(), iban, limit: values.creditLimit ?? '500000.00', used: values.usedCredit ?? '0', advance: values.advanceRate ?? '80.00', fee: values.feeRate ?? '1.500' },
  );
  // Financing needs the client's KYC approved.
  await approveKyc(rows[0].id);
  return { id: rows[0].id, name, iban };
}

export async function insertCustomer(values: { iban?: string } = {}) {
  const name = `Kupac ${randomInt(1e6, 9e6)} d.d.`;
  const { rows } = await execute<{ id: string }>(`INSERT INTO customers (company_name, oib, iban) VALUES (:name, :oib, :iban) RETURNING id`, {
    name,
    oib: newOib(),
    iban: values.iban ?? null,
  });
  return { id: rows[0].id, name };
}

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

export interface Book {
  manager: { id: string; role: Role };
  manager2: { id: string; role: Role };
  user: { id: string; role: Role };
}

export async function book(): Promise<Book> {
  return { manager: await staff('manager'), manager2: await staff('manager'), user: await staff('user') };
}

/** An invoice taken pending → verified → approved → financed by two managers (four eyes). */
export async function financedInvoice(
  b: Book,
  values: { clientId: string; customerId: string; amount: string; invoiceNumber?: string; dueInDays?: number; issuedDaysAgo?: number },
) {
  const invoice = await createInvoice({
    actor: b.user,
    input: {
      clientId: values.clientId,
      customerId: values.customerId,
      invoiceNumber: values.invoiceNumber ?? `R-2026-${randomInt(1000, 9999)}-${randomInt(100, 999)}`,
      issueDate: day(-(values.issuedDaysAgo ?? 5)),
      dueDate: day(values.dueInDays ?? 40),
      amount: values.amount,
      currency: 'EUR',
      description: 'Isporuka robe',
    },
  });
  await verifyInvoice({ actor: b.manager, id: invoice.id });
  await approveInvoice({ actor: b.manager2, id: invoice.id });
  await financeInvoice({ actor: b.manager, id: invoice.id });
  return (await selectOne<{ id: string; invoice_number: string; amount: string; factor_amount: string; factor_fee: string; paid_amount: string; status: string }>(
    'SELECT id, invoice_number, amount, factor_amount, factor_fee, paid_amount, status FROM invoices WHERE id = :id',
    { id: invoice.id },
  ))!;
}

export async function usedCredit(clientId: string): Promise<string> {
  return (await selectOne<{ used_credit: string }>('SELECT used_credit FROM clients WHERE id = :id', { id: clientId }))!.used_credit;
}
