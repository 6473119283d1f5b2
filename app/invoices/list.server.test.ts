import { describe, expect, it } from 'vitest';
import { execute, selectOne } from '../db.server.ts';
import { searchEverything } from '../search.server.ts';
import { oibCheckDigit } from '../utils/validation.ts';
import { invoiceTabCounts, listInvoices } from './invoices.server.ts';

/**
 * The invoice list's totals and search as a user meets them: the total is the
 * number of invoices the filter matches (maintained totals for the whole book
 * and per status, counted otherwise), and the search finds a number by its
 * start or its end and a description by any part.
 */
let serial = 5_200_000_000;
const oib = () => {
  const base = String(serial++);
  return `${base}${oibCheckDigit(base)}`;
};

async function book() {
  const client = (await selectOne<{ id: string }>(`INSERT INTO clients (company_name, oib) VALUES ('Lista d.o.o.', :oib) RETURNING id`, { oib: oib() }))!;
  const customer = (await selectOne<{ id: string }>(`INSERT INTO customers (company_name, oib) VALUES ('Kupac liste d.d.', :oib) RETURNING id`, { oib: oib() }))!;
  const invoices: Array<[number: string, description: string, status: string]> = [
    ['R-2025-0001234', 'Isporuka robe', 'pending'],
    ['R-2025-0001299', 'Usluge prijevoza Split', 'verified'],
    ['R-2026-0000001', 'Održavanje 100%_popust', 'pending'],
    ['ab_12', 'Konzultantske usluge', 'rejected'],
    ['AB-12', 'Isporuka', 'pending'],
  ];
  for (const [number, description, status] of invoices) {
    await execute(
      `INSERT INTO invoices (client_id, customer_id, invoice_number, description, status, amount, issue_date, due_date, verified_at, rejected_at, rejection_reason)
       VALUES (:clientId, :customerId, :number, :description, :status, 100.00, current_date, current_date + 30,
               CASE WHEN :status = 'verified' THEN now() END, CASE WHEN :status = 'rejected' THEN now() END, CASE WHEN :status = 'rejected' THEN 'Ne' END)`,
      { clientId: client.id, customerId: customer.id, number, description, status },
    );
  }
  return { clientId: client.id };
}

const numbers = async (q: string, status?: string) => {
  const { items, total } = await listInvoices({ q, status });
  expect(total).toBe(items.length);
  return items.map((item) => item.invoiceNumber).sort();
};

describe('the invoice list', () => {
  it('finds numbers by their start or end (any case) and descriptions by any part; % and _ are literal', async () => {
    await book();
    expect(await numbers('r-2025-00012')).toEqual(['R-2025-0001234', 'R-2025-0001299']);
    expect(await numbers('1234')).toEqual(['R-2025-0001234']);
    expect(await numbers('R-2026-0000001')).toEqual(['R-2026-0000001']);
    expect(await numbers('prijevoz')).toEqual(['R-2025-0001299']);
    expect(await numbers('ISPORUKA')).toEqual(['AB-12', 'R-2025-0001234']);
    expect(await numbers('ab_')).toEqual(['ab_12']);
    expect(await numbers('100%_')).toEqual(['R-2026-0000001']);
    expect(await numbers('r-2025', 'verified')).toEqual(['R-2025-0001299']);
    expect(await numbers('nema')).toEqual([]);
    expect(await invoiceTabCounts({ q: 'r-20' })).toEqual({ all: 3, pending: 2, verified: 1, approved: 0, rejected: 0 });
    expect((await searchEverything('1299')).invoices.map((invoice) => invoice.invoiceNumber)).toEqual(['R-2025-0001299']);
  });

  it('totals equal counting the book, for the whole book, each status and a client', async () => {
    const { clientId } = await book();
    const count = async (where = 'true') => (await selectOne<{ n: number }>(`SELECT count(*)::int AS n FROM invoices WHERE ${where}`))!.n;
    expect((await listInvoices({ limit: 2 })).total).toBe(await count());
    for (const status of ['pending', 'verified', 'approved', 'rejected', 'financed', 'paid']) {
      expect((await listInvoices({ status, limit: 1 })).total).toBe(await count(`status = '${status}'`));
    }
    expect((await listInvoices({ clientId, limit: 1 })).total).toBe(await count(`client_id = '${clientId}'`));
    expect(await invoiceTabCounts()).toEqual({
      all: await count(),
      pending: await count(`status = 'pending'`),
      verified: await count(`status = 'verified'`),
      approved: await count(`status = 'approved'`),
      rejected: await count(`status = 'rejected'`),
    });
    // Newest first, paged.
    const first = await listInvoices({ limit: 2 });
    const second = await listInvoices({ limit: 2, offset: 2 });
    expect(new Set([...first.items, ...second.items].map((item) => item.id)).size).toBe(4);
  });
});
