import { describe, expect, it } from 'vitest';
import { getRequest, signedInCookie } from '../auth/test-helpers.server.ts';
import { inTransaction, selectOne, selectRows, execute } from '../db.server.ts';
import { loader as statementLoader } from '../routes/api.clients.$clientId.statement.ts';
import { addDays, businessDay } from '../utils/business-time.ts';
import { toCents } from '../utils/money.ts';
import { createTestUser, insertClient, insertCustomer, insertInvoice } from '../../tests/factories.ts';
import { pdfText } from '../../tests/support/pdf-text.ts';
import { invoiceLedgerBalance, ledgerDebtorExposure, ledgerUsedCredit, postLedgerEntries, type LedgerEntryInput } from './ledger.server.ts';
import { clientAccountSummary, ledgerPage, statement } from './statement.server.ts';
import { parseCsv } from '../exports/test-csv.ts';

const today = businessDay();
const day = (offset: number) => addDays(today, offset);

/** What financing writes for an invoice (advance, fee, VAT on the fee), posted through the one writer. */
async function financeInLedger(invoiceId: string, clientId: string, bookedOn: string, cents: { advance: number; fee: number }) {
  const vat = Math.round(cents.fee / 4);
  const base = { clientId, invoiceId, createdBy: null, bookedOn, description: 'R-1' } as const;
  await inTransaction((transaction) =>
    postLedgerEntries(
      [
        { ...base, kind: 'advance', amountCents: cents.advance },
        { ...base, kind: 'fee', amountCents: cents.fee },
        { ...base, kind: 'fee_vat', amountCents: vat },
      ],
      transaction,
    ),
  );
}

const post = (entries: LedgerEntryInput[]) => inTransaction((transaction) => postLedgerEntries(entries, transaction));

/** A client with three financed invoices, partial and full collections and a release over 40 days (entries on shared days too). */
async function accountWithHistory() {
  const client = await insertClient();
  const customer = await insertCustomer();
  const invoices: string[] = [];
  for (const amount of ['10000.00', '2500.55', '777.77']) {
    invoices.push(await insertInvoice({ clientId: client.id, customerId: customer.id, amount, dueDate: day(30) }));
  }
  await financeInLedger(invoices[0], client.id, day(-40), { advance: 800000, fee: 15000 });
  await financeInLedger(invoices[1], client.id, day(-40), { advance: 200044, fee: 3751 });
  await financeInLedger(invoices[2], client.id, day(-25), { advance: 62222, fee: 1167 });
  await post([{ clientId: client.id, invoiceId: invoices[0], kind: 'collection', amountCents: -300000, bookedOn: day(-20), description: 'R-1', createdBy: null }]);
  await post([{ clientId: client.id, invoiceId: invoices[1], kind: 'collection', amountCents: -250055, bookedOn: day(-10), description: 'R-2', createdBy: null }]);
  // The second invoice settled: its reserve released (amount − advance − fee − VAT), so its entries sum to zero.
  await post([
    { clientId: client.id, invoiceId: invoices[1], kind: 'reserve_release', amountCents: 250055 - 200044 - 3751 - 938, bookedOn: day(-10), description: 'R-2', createdBy: null },
  ]);
  await execute(`UPDATE invoices SET status = 'paid', paid_amount = amount, paid_at = now() WHERE id = :id`, { id: invoices[1] });
  await execute(`UPDATE invoices SET paid_amount = 3000.00 WHERE id = :id`, { id: invoices[0] });
  return { client, customer, invoices };
}

/** The independent computation: every entry in the ledger's order, summed in JavaScript cents. */
async function independent(clientId: string) {
  const rows = await selectRows<{ booked_on: string; entry_number: string; amount: string }>(
    `SELECT to_char(booked_on, 'YYYY-MM-DD') AS booked_on, entry_number, amount FROM client_ledger WHERE client_id = :clientId`,
    { clientId },
  );
  rows.sort((a, b) => a.booked_on.localeCompare(b.booked_on) || Number(a.entry_number) - Number(b.entry_number));
  let running = 0;
  return rows.map((row) => {
    running += toCents(row.amount);
    return { bookedOn: row.booked_on, entryNumber: Number(row.entry_number), cents: toCents(row.amount), balance: running };
  });
}

const cents = (eur: number) => Math.round(eur * 100);

describe('the ledger page', () => {
  it('gives every entry the running balance of the whole account, page after page', async () => {
    const { client } = await accountWithHistory();
    const expected = await independent(client.id);
    expect(expected).toHaveLength(12);
    const seen: Array<{ entryNumber: number; balance: number }> = [];
    const first = await ledgerPage(client.id, { page: 1, pageSize: 4 });
    expect(first).toMatchObject({ total: 12, pages: 3, page: 1 });
    for (let page = 1; page <= first.pages; page += 1) {
      const { entries } = await ledgerPage(client.id, { page, pageSize: 4 });
      seen.push(...entries.map((entry) => ({ entryNumber: entry.entryNumber, balance: cents(entry.balance) })));
    }
    expect(seen).toEqual(expected.map((entry) => ({ entryNumber: entry.entryNumber, balance: entry.balance })));
    // A page past the end is the last one.
    expect((await ledgerPage(client.id, { page: 99, pageSize: 4 })).page).toBe(3);
  });

  it('links each entry to what it came from', async () => {
    const { client, invoices } = await accountWithHistory();
    const { entries } = await ledgerPage(client.id);
    const advance = entries.find((entry) => entry.kind === 'advance' && entry.invoiceId === invoices[0])!;
    expect(advance).toMatchObject({ debit: 8000, credit: null, amount: 8000 });
    expect(advance.invoiceNumber).toMatch(/^R-/);
    const collection = entries.find((entry) => entry.kind === 'collection')!;
    expect(collection).toMatchObject({ debit: null, credit: 3000, amount: -3000 });
  });

  it('answers 404 for an unknown client', async () => {
    await expect(ledgerPage('00000000-0000-4000-8000-000000000000')).rejects.toMatchObject({ status: 404 });
    await expect(ledgerPage('not-an-id')).rejects.toMatchObject({ status: 404 });
  });
});

describe('the account summary', () => {
  it('has the balance, the used credit of clients.used_credit (= the ledger sum) and the reserve of the open invoices', async () => {
    const { client, customer, invoices } = await accountWithHistory();
    const summary = await clientAccountSummary(client.id, today);
    const expected = await independent(client.id);
    expect(cents(summary.balance)).toBe(expected.at(-1)!.balance);
    // Used credit: invoice 1: 8000 − 3000 collected; invoice 3: 622.22; invoice 2 repaid.
    expect(cents(summary.usedCredit)).toBe(500000 + 62222);
    expect(cents(summary.usedCredit)).toBe(await ledgerUsedCredit(client.id));
    const row = await selectOne<{ used_credit: string }>('SELECT used_credit FROM clients WHERE id = :id', { id: client.id });
    expect(toCents(row!.used_credit)).toBe(await ledgerUsedCredit(client.id));
    // Reserve per open invoice = amount − advance − fee − VAT on the fee.
    expect(cents(summary.reserve)).toBe(1000000 - 800000 - 15000 - 3750 + (77777 - 62222 - 1167 - 292));
    expect(summary.entryCount).toBe(12);
    // The debtor's exposure is the same sum, and the settled invoice's entries balance to zero.
    expect(await ledgerDebtorExposure(customer.id)).toBe(500000 + 62222);
    const exposure = await selectOne<{ used_credit: string }>('SELECT used_credit FROM customers WHERE id = :id', { id: customer.id });
    expect(toCents(exposure!.used_credit)).toBe(500000 + 62222);
    expect(await invoiceLedgerBalance(invoices[1])).toBe(0);
    expect(await invoiceLedgerBalance(invoices[0])).toBe(800000 + 15000 + 3750 - 300000);
  });

  it('counts the fees and VAT booked this calendar year only', async () => {
    const client = await insertClient();
    const customer = await insertCustomer();
    const invoice = await insertInvoice({ clientId: client.id, customerId: customer.id, amount: '1000.00', dueDate: day(30) });
    const lastYear = `${Number(today.slice(0, 4)) - 1}-12-31`;
    await financeInLedger(invoice, client.id, lastYear, { advance: 80000, fee: 1500 });
    await post([{ clientId: client.id, invoiceId: invoice, kind: 'fee', amountCents: 1000, bookedOn: today, description: 'dopuna', createdBy: null }]);
    const summary = await clientAccountSummary(client.id, today);
    expect(summary.feesThisYear).toBe(10);
    expect(summary.feeVatThisYear).toBe(0);
  });
});

describe('the statement', () => {
  it('brings forward every entry before the period, and brought forward + movements = closing, to the cent', async () => {
    const { client } = await accountWithHistory();
    const all = await independent(client.id);
    for (const [from, to] of [
      [day(-40), day(-40)],
      [day(-39), day(-10)],
      [day(-25), day(0)],
      [day(-100), day(-50)],
      [day(-9), day(5)],
    ]) {
      const result = await statement(client.id, from, to);
      const before = all.filter((entry) => entry.bookedOn < from).reduce((sum, entry) => sum + entry.cents, 0);
      const inside = all.filter((entry) => entry.bookedOn >= from && entry.bookedOn <= to);
      expect(cents(result.broughtForward)).toBe(before);
      expect(result.movements.map((entry) => entry.entryNumber)).toEqual(inside.map((entry) => entry.entryNumber));
      expect(result.movements.map((entry) => cents(entry.balance))).toEqual(inside.map((entry) => entry.balance));
      const movements = inside.reduce((sum, entry) => sum + entry.cents, 0);
      expect(cents(result.closing)).toBe(before + movements);
      expect(cents(result.totalDebit) - cents(result.totalCredit)).toBe(movements);
    }
  });
});

describe('client_ledger is append-only', () => {
  it('refuses UPDATE and DELETE of an entry', async () => {
    const { client } = await accountWithHistory();
    const entry = await selectOne<{ id: string }>('SELECT id FROM client_ledger WHERE client_id = :id LIMIT 1', { id: client.id });
    await expect(execute('UPDATE client_ledger SET amount = 1 WHERE id = :id', { id: entry!.id })).rejects.toThrow(/append-only/);
    await expect(execute('DELETE FROM client_ledger WHERE id = :id', { id: entry!.id })).rejects.toThrow(/append-only/);
    expect((await selectOne<{ n: number }>('SELECT count(*)::int AS n FROM client_ledger WHERE id = :id', { id: entry!.id }))!.n).toBe(1);
  });
});

const ctx = (request: Request, params: Record<string, string>) => ({ request, params, context: { clientIp: '127.0.0.1' } });

const csvCents = (value: string) => (value === '' ? 0 : toCents(value.replace(',', '.')));
const hrCents = (value: string) => toCents(value.replace(/\./g, '').replace(',', '.'));

describe('GET /api/clients/{id}/statement', () => {
  it('downloads a CSV with a BOM, ";" and CRLF whose rows and totals balance, formulas neutralised', async () => {
    const { client, invoices } = await accountWithHistory();
    await execute(`UPDATE invoices SET invoice_number = '=SUM(A1)' WHERE id = :id`, { id: invoices[2] });
    const cookie = await signedInCookie((await createTestUser({ role: 'user' })).id);
    const response = await statementLoader(ctx(getRequest(`/api/clients/${client.id}/statement?from=${day(-30)}&to=${today}&format=csv`, cookie), { clientId: client.id }));
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('Content-Disposition')).toContain('.csv');
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder().decode(bytes.subarray(3));
    const records = parseCsv(text, ';');
    expect(records[0]).toEqual(['Datum', 'Vrsta', 'Referenca', 'Duguje', 'Potražuje', 'Saldo']);
    const broughtForward = csvCents(records[1][5]);
    const movements = records.slice(2, -1);
    const totals = records.at(-1)!;
    let running = broughtForward;
    for (const row of movements) {
      running += csvCents(row[3]) - csvCents(row[4]);
      expect(csvCents(row[5])).toBe(running);
    }
    expect(csvCents(totals[5])).toBe(running);
    expect(csvCents(totals[3]) - csvCents(totals[4])).toBe(running - broughtForward);
    expect(movements.map((row) => row[1])).toContain('Predujam');
    expect(movements.map((row) => row[1])).toContain('PDV na naknadu');
    expect(movements.some((row) => row[2] === "'=SUM(A1)")).toBe(true);
    expect(broughtForward).toBe((await independent(client.id)).filter((entry) => entry.bookedOn < day(-30)).reduce((sum, entry) => sum + entry.cents, 0));
  });

  it('downloads a Croatian PDF whose brought forward, totals and closing balance agree', async () => {
    const { client } = await accountWithHistory();
    const cookie = await signedInCookie((await createTestUser({ role: 'user' })).id);
    const response = await statementLoader(ctx(getRequest(`/api/clients/${client.id}/statement?from=${day(-30)}&to=${today}`, cookie), { clientId: client.id }));
    expect(response.headers.get('Content-Type')).toBe('application/pdf');
    const text = await pdfText(new Uint8Array(await response.arrayBuffer()));
    expect(text).toContain('Izvadak računa klijenta');
    expect(text).toContain(`OIB klijenta: ${client.oib}`);
    const figure = (label: string) => hrCents(new RegExp(`${label}: (-?[\\d.]+,\\d{2})`).exec(text)![1]);
    const broughtForward = figure('Preneseni saldo');
    expect(broughtForward + figure('Ukupno duguje') - figure('Ukupno potražuje')).toBe(figure('Završni saldo'));
    expect(figure('Završni saldo')).toBe((await independent(client.id)).at(-1)!.balance);
    expect(text).toContain('Naplata');
    expect(text).toContain('Isplata rezerve');
  });

  it('answers 400 for a bad or inverted range or format, 404 for an unknown client, 401 without a session', async () => {
    const { client } = await accountWithHistory();
    const cookie = await signedInCookie((await createTestUser({ role: 'user' })).id);
    const call = async (query: string, id = client.id, withCookie: string | null = cookie) => {
      try {
        return await statementLoader(ctx(getRequest(`/api/clients/${id}/statement?${query}`, withCookie ?? undefined), { clientId: id }));
      } catch (thrown) {
        if (thrown instanceof Response) return thrown;
        throw thrown;
      }
    };
    expect((await call('from=2026-02-30&to=2026-03-01')).status).toBe(400);
    expect((await call('to=2026-03-01')).status).toBe(400);
    const inverted = await call('from=2026-03-02&to=2026-03-01');
    expect(inverted.status).toBe(400);
    expect((await inverted.json()).code).toBe('ledger.errors.rangeInverted');
    expect((await call('from=2026-03-01&to=2026-03-01&format=xlsx')).status).toBe(400);
    expect((await call('from=2026-03-01&to=2026-03-01', '00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await call('from=2026-03-01&to=2026-03-01', client.id, null)).status).toBe(401);
  });
});
