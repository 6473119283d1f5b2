import { describe, expect, it } from 'vitest';
import { execute, inTransaction, selectOne, selectRows } from '../db.server.ts';
import { invoiceSearchCondition, searchEverything } from '../search.server.ts';
import { invoiceTabCounts, listInvoices } from './invoice-queries.server.ts';
import { insertClient, insertCustomer } from '../../tests/factories.ts';

/**
 * The invoice list's totals and search as a user meets them: the total is the
 * number of invoices the filter matches (maintained totals for the whole book
 * and per status, counted otherwise), and the search finds a number and a
 * description by any part.
 */
async function book() {
  const client = await insertClient({ name: 'Lista d.o.o.' });
  const customer = await insertCustomer({ name: 'Kupac liste d.d.' });
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
  it('finds numbers and descriptions by any part (any case); % and _ are literal', async () => {
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
    expect(await invoiceTabCounts({ q: 'r-20' })).toEqual({ all: 3, pending: 2, verified: 1, approved: 0, rejected: 0, charged_back: 0, written_off: 0 });
    // A searched page counts all its matches, also a page past the end, and no match is 0.
    expect((await listInvoices({ q: 'r-20', limit: 1 })).total).toBe(3);
    expect(await listInvoices({ q: 'r-20', limit: 2, offset: 2 })).toMatchObject({ total: 3, items: [expect.anything()] });
    expect(await listInvoices({ q: 'r-20', limit: 2, offset: 10 })).toEqual({ total: 3, items: [] });
    expect(await listInvoices({ q: 'nema', limit: 2 })).toEqual({ total: 0, items: [] });
    expect((await searchEverything('1299')).invoices.map((invoice) => invoice.invoiceNumber)).toEqual(['R-2025-0001299']);
  });

  it('finds a number by a fragment in its middle, short or longer than an index piece, with any characters', async () => {
    const client = await insertClient({ name: 'Fragmenti d.o.o.' });
    const customer = await insertCustomer({ name: 'Kupac fragmenata d.d.' });
    // The last holds the pieces of `ınv-abcd` (a dotless ı) and, upper-cased, the whole of it, but not the term itself.
    const made = ['R-2025-00421', 'R-2025-10042', 'X-2024-99999', `Ra'čun \\ 7&8:*!|(5)`, 'ČŽ-ŠĐ 2025/17/1', 'INV-ABCDEFGHIJKLMNOP', 'ınv-ab v-abcd INV-ABCD'];
    for (const number of made) {
      await execute(
        `INSERT INTO invoices (client_id, customer_id, invoice_number, description, amount, issue_date, due_date)
         VALUES (:clientId, :customerId, :number, 'Opis', 100.00, current_date, current_date + 30)`,
        { clientId: client.id, customerId: customer.id, number },
      );
    }
    // The issue's example, a fragment of both numbers, and fragments around the pieces' length (6).
    expect(await numbers('0042')).toEqual(['R-2025-00421', 'R-2025-10042']);
    expect(await numbers('5-0042')).toEqual(['R-2025-00421']);
    expect(await numbers('25-0042')).toEqual(['R-2025-00421']);
    expect(await numbers('2025-100')).toEqual(['R-2025-10042']);
    expect(await numbers('025-1')).toEqual(['R-2025-10042']);
    expect(await numbers('defghijklmn')).toEqual(['INV-ABCDEFGHIJKLMNOP']);
    expect(await numbers('inv-abcd')).toEqual(['INV-ABCDEFGHIJKLMNOP', 'ınv-ab v-abcd INV-ABCD']);
    expect(await numbers('ınv-abcd')).toEqual([]);
    // Every 6-character piece present but not in this order: not a match.
    expect(await numbers('ghijklabcdef')).toEqual([]);
    expect(await numbers('2024-0042')).toEqual([]);
    // Quotes, backslashes and tsquery operators are plain characters; letters beyond ASCII in any case.
    expect(await numbers(`'čun \\ 7&8:*!|(`)).toEqual([`Ra'čun \\ 7&8:*!|(5)`]);
    expect(await numbers(':*')).toEqual([`Ra'čun \\ 7&8:*!|(5)`]);
    expect(await numbers('čž-šđ 2025/17')).toEqual(['ČŽ-ŠĐ 2025/17/1']);
    expect(await numbers('/17/')).toEqual(['ČŽ-ŠĐ 2025/17/1']);
    expect((await searchEverything('99999')).invoices.map((invoice) => invoice.invoiceNumber)).toEqual(['X-2024-99999']);

    // Against ILIKE itself, for every fragment of every number here.
    const all = await selectRows<{ invoice_number: string }>('SELECT invoice_number FROM invoices');
    for (const { invoice_number: number } of all) {
      for (let start = 0; start < number.length; start += 2) {
        for (const length of [1, 3, 6, 7, 11]) {
          const fragment = number.slice(start, start + length).trim();
          if (!fragment) continue;
          // As written, and typed in either case.
          for (const term of new Set([fragment, fragment.toLowerCase(), fragment.toUpperCase()])) {
            const replacements: Record<string, unknown> = {};
            const condition = invoiceSearchCondition('i', term, replacements);
            const [viaIndex, plain] = await Promise.all([
              selectRows<{ id: string }>(`SELECT i.id FROM invoices i WHERE ${condition} ORDER BY i.id`, replacements),
              selectRows<{ id: string }>(`SELECT i.id FROM invoices i WHERE i.invoice_number ILIKE :pattern OR i.description ILIKE :pattern ORDER BY i.id`, replacements),
            ]);
            expect(viaIndex, term).toEqual(plain);
          }
        }
      }
    }

    /** The plan of the search condition alone, index scans preferred (a table this small would be read whole otherwise). */
    const planOf = (term: string) =>
      inTransaction(async (transaction) => {
        await execute('SET LOCAL enable_seqscan = off', {}, { transaction });
        const replacements: Record<string, unknown> = {};
        const rows = await selectRows<{ 'QUERY PLAN': string }>(`EXPLAIN SELECT i.id FROM invoices i WHERE ${invoiceSearchCondition('i', term, replacements)}`, replacements, {
          transaction,
        });
        return rows.map((row) => row['QUERY PLAN']).join('\n');
      });
    // The number part is answered by the index of pieces,
    const plan = await planOf('0042');
    expect(plan).toContain('invoices_number_grams_idx');
    // and the rows it finds are checked by ILIKE, not by computing their pieces again.
    expect(plan).not.toMatch(/Filter:.*invoice_number_grams/);

    // A term without a trigram is not looked for in the description's index (which would return every entry), and no row's pieces are computed;
    for (const term of ['12', 'č', '---', '/']) {
      const termPlan = await planOf(term);
      expect(termPlan, term).not.toContain('trgm');
      expect(termPlan, term).not.toContain('invoice_number_grams');
    }
    // one whose short word stands between other characters has one.
    for (const term of ['a b', '/17/', '-12-']) expect(await planOf(term), term).toContain('invoices_description_trgm_idx');
  });

  it('totals equal counting the book, for the whole book, each status and a client', async () => {
    const { clientId } = await book();
    const count = async (where = 'true') => (await selectOne<{ n: number }>(`SELECT count(*)::int AS n FROM invoices WHERE ${where}`))!.n;
    expect((await listInvoices({ limit: 2 })).total).toBe(await count());
    for (const status of ['pending', 'verified', 'approved', 'rejected', 'financed', 'paid', 'charged_back', 'written_off']) {
      expect((await listInvoices({ status, limit: 1 })).total).toBe(await count(`status = '${status}'`));
    }
    expect((await listInvoices({ clientId, limit: 1 })).total).toBe(await count(`client_id = '${clientId}'`));
    expect(await invoiceTabCounts()).toEqual({
      all: await count(),
      pending: await count(`status = 'pending'`),
      verified: await count(`status = 'verified'`),
      approved: await count(`status = 'approved'`),
      rejected: await count(`status = 'rejected'`),
      charged_back: await count(`status = 'charged_back'`),
      written_off: await count(`status = 'written_off'`),
    });
    // Newest first, paged.
    const first = await listInvoices({ limit: 2 });
    const second = await listInvoices({ limit: 2, offset: 2 });
    expect(new Set([...first.items, ...second.items].map((item) => item.id)).size).toBe(4);
  });
});
