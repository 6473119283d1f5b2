import { describe, expect, it } from 'vitest';
import { execute, selectOne } from '../db.server.ts';
import { handleFind, partyOptions } from './page.server.ts';

/**
 * The add form's pickers without JavaScript: the page lists the first 500
 * names; the search step finds any party of the book and keeps what the form
 * held, the chosen parties included.
 */
async function manyClients(count: number) {
  // 'Aaa …' sort before everything else, so 'Žuta tvrtka' is beyond the first 500.
  await execute(
    `INSERT INTO clients (company_name, oib, email)
     SELECT 'Aaa klijent ' || lpad(g::text, 4, '0'), lpad((70000000000 + g)::text, 11, '0'), 'k' || g || '@primjer.hr'
       FROM generate_series(1, :count) AS g`,
    { count },
  );
  return (await selectOne<{ id: string }>(`INSERT INTO clients (company_name, oib, email) VALUES ('Žuta tvrtka d.o.o.', '69999999999', 'zuta@tvrtka.hr') RETURNING id`))!.id;
}

describe('the pickers of the add form', () => {
  it('list the first 500 names, and the search finds the others by name, OIB or email, keeping the chosen one', async () => {
    const zuta = await manyClients(520);
    const customer = (await selectOne<{ id: string }>(
      `INSERT INTO customers (company_name, oib, account_blocked, blockage_reason) VALUES ('Blokirani kupac d.d.', '68888888888', true, 'Blokada') RETURNING id`,
    ))!.id;

    const first = await partyOptions();
    expect(first.clients).toHaveLength(500);
    expect(first.capped.clients).toBe(true);
    expect(first.clients.map((client) => client.id)).not.toContain(zuta);

    expect((await partyOptions({ clientQ: 'žuta' })).clients.map((client) => client.id)).toEqual([zuta]);
    expect((await partyOptions({ clientQ: '6999999' })).clients.map((client) => client.id)).toEqual([zuta]);
    expect((await partyOptions({ clientQ: 'zuta@tvrtka' })).clients.map((client) => client.id)).toEqual([zuta]);
    const none = await partyOptions({ clientQ: 'nema takve' });
    expect(none.clients).toEqual([]);
    expect(none.capped.clients).toBe(false);
    expect(none.found.clients).toBe(0);

    // A search of the customers keeps the client chosen before, though no search lists it.
    const kept = await partyOptions({ customerQ: 'blokirani', clientId: zuta, customerId: customer });
    expect(kept.clients[0]).toEqual({ id: zuta, name: 'Žuta tvrtka d.o.o.' });
    expect(kept.clients).toHaveLength(501);
    expect(kept.found).toEqual({ clients: 500, customers: 1 });
    // The kept choice is listed but not counted as found.
    expect((await partyOptions({ clientQ: 'nema takve', clientId: zuta })).found.clients).toBe(0);
    expect(kept.customers).toEqual([{ id: customer, name: 'Blokirani kupac d.d.', blocked: true }]);
  });

  it('the search step answers with every value entered, the terms and the matching options, and stores nothing', async () => {
    const zuta = (await selectOne<{ id: string }>(`SELECT id FROM clients WHERE company_name = 'Žuta tvrtka d.o.o.'`))?.id ?? (await manyClients(1));
    const invoicesBefore = (await selectOne<{ n: number }>('SELECT count(*)::int AS n FROM invoices'))!.n;
    const form = new FormData();
    const typed = {
      intent: 'create',
      clientId: '',
      customerId: '',
      invoiceNumber: 'R-2026-77/1/1',
      issueDate: '2026-11-20',
      dueDate: '2026-12-20',
      amount: '1.250,00',
      currency: 'EUR',
      description: 'Opis s "navodnicima" i\nnovim redom',
      clientQ: '  Žuta ',
      customerQ: '',
      find: 'clients',
    };
    for (const [name, value] of Object.entries(typed)) form.set(name, value);
    const response = await handleFind(form);
    const body = (await response.json()) as { intent: string; form: string; values: Record<string, string>; clientQ: string; options: { clients: Array<{ id: string }> } };
    expect(body).toMatchObject({
      intent: 'find',
      form: 'create',
      clientQ: 'Žuta',
      values: {
        clientId: '',
        invoiceNumber: 'R-2026-77/1/1',
        issueDate: '2026-11-20',
        dueDate: '2026-12-20',
        amount: '1.250,00',
        currency: 'EUR',
        description: 'Opis s "navodnicima" i\nnovim redom',
      },
    });
    expect(body.options.clients.map((client) => client.id)).toEqual([zuta]);
    expect((await selectOne<{ n: number }>('SELECT count(*)::int AS n FROM invoices'))!.n).toBe(invoicesBefore);

    // The e-invoice form searches its client picker only, and keeps its choice.
    const ubl = new FormData();
    ubl.set('intent', 'import');
    ubl.set('clientId', zuta);
    ubl.set('clientQ', 'aaa klijent 0001');
    ubl.set('find', 'clients');
    const answer = (await (await handleFind(ubl)).json()) as { form: string; values: Record<string, string>; options: { clients: Array<{ id: string }> } };
    expect(answer.form).toBe('import');
    expect(answer.values).toEqual({ clientId: zuta });
    expect(answer.options.clients[0].id).toBe(zuta);
    expect(answer.options.clients.length).toBeGreaterThan(1);
  });
});
