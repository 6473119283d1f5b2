import { describe, expect, it } from 'vitest';
import { activityRows, apiFailure, signedInCookie } from '../auth/test-helpers.server.ts';
import { selectOne, selectRows } from '../db.server.ts';
import { confirmPayment } from '../payments/payment-transitions.server.ts';
import { listPayments } from '../payments/payment-queries.server.ts';
import { action as importAction } from '../routes/api.bank-statements.ts';
import { loader as unmatchedLoader } from '../routes/api.bank-statements.unmatched.ts';
import { assignEntry, importBankStatement, listUnmatchedEntries, parseCamt053, paymentReferences } from './camt053.server.ts';
import { camt053Fixture } from './camt053-fixture.ts';
import { factorAccount } from './factor-account.server.ts';
import { book, financedInvoice, financeableClient, insertCustomer, newIban } from '../../tests/factories.ts';

const count = async (sql: string) => (await selectOne<{ n: number }>(`SELECT count(*)::int AS n FROM ${sql}`))!.n;

describe('camt.053 cash application', () => {
  it('reads the poziv na broj models', () => {
    expect(paymentReferences('Uplata po računu HR00 2025-0042')).toEqual(['2025-0042']);
    expect(paymentReferences('HR01 R-2025-0042 i HR99')).toEqual(['R-2025-0042']);
  });

  it('matches one invoice, leaves one entry unmatched, and a re-import changes nothing; the unmatched one is assigned by hand', async () => {
    const b = await book();
    const client = await financeableClient();
    const payerIban = newIban();
    const customer = await insertCustomer({ iban: payerIban });
    const number = `R-2026-${Date.now() % 100000}`;
    const invoice = await financedInvoice(b, { clientId: client.id, customerId: customer.id, amount: '2500.00', invoiceNumber: number });
    const other = await financedInvoice(b, { clientId: client.id, customerId: customer.id, amount: '800.00' });
    const statementRef = `IZV-${Date.now()}`;
    const xml = camt053Fixture({
      iban: factorAccount().iban,
      statementId: statementRef,
      entries: [
        { ref: `BANK-${Date.now()}-1`, amount: '2500.00', creditorRef: `HR01 ${number}`, ustrd: `Placanje racuna ${number}`, debtorName: customer.name, debtorIban: payerIban },
        { ref: `BANK-${Date.now()}-2`, amount: '123.45', ustrd: 'Uplata bez poziva na broj', debtorName: 'Nepoznati d.o.o.' },
        { ref: `BANK-${Date.now()}-3`, amount: '99.00', credit: false, ustrd: 'Naknada banke' },
      ],
    });
    const before = { payments: await count('payments'), entries: await count('bank_statement_entries') };
    const result = await importBankStatement({ actor: b.user, xml, fileName: 'izvod.xml', ip: '10.2.2.2' });
    expect(result).toMatchObject({ matched: 1, unmatched: 1, duplicates: 0, skipped: 1, alreadyImported: false });

    const created = (await listPayments({ q: number, tab: 'all' })).items;
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({ invoiceId: invoice.id, amount: 2500, status: 'pending', source: 'bank_statement', paymentMethod: 'bank_transfer' });
    expect(created[0].reference).toContain(number);
    const bankRef = await selectOne<{ bank_entry_ref: string }>('SELECT bank_entry_ref FROM payments WHERE id = :id', { id: created[0].id });
    expect(bankRef!.bank_entry_ref).toMatch(/^BANK-\d+-1$/);
    // This statement's entries: the file's other tests leave unmatched entries of their own.
    const unmatchedOfThis = async () => (await listUnmatchedEntries({ limit: 1000 })).items.filter((entry) => entry.statementRef === statementRef);
    const unmatched = await unmatchedOfThis();
    expect(unmatched).toHaveLength(1);
    expect(unmatched[0]).toMatchObject({ amount: 123.45, debtorName: 'Nepoznati d.o.o.', status: 'unmatched' });
    expect(unmatched[0].reason).toBeTruthy();
    expect(await activityRows('bank_statement_imported', result.statementId)).toHaveLength(1);

    // The same file again: nothing new.
    const snapshot = { payments: await count('payments'), entries: await count('bank_statement_entries'), statements: await count('bank_statements') };
    expect(snapshot.payments).toBe(before.payments + 1);
    expect(snapshot.entries).toBe(before.entries + 2);
    const again = await importBankStatement({ actor: b.user, xml, fileName: 'izvod.xml' });
    expect(again).toMatchObject({ matched: 0, unmatched: 0, duplicates: 2, alreadyImported: true, statementId: result.statementId });
    expect({ payments: await count('payments'), entries: await count('bank_statement_entries'), statements: await count('bank_statements') }).toEqual(snapshot);

    // A person assigns the unmatched entry; it becomes a pending payment with the entry's reference.
    const waiting = (await listUnmatchedEntries()).total;
    const payment = await assignEntry({ actor: b.user, id: unmatched[0].id, input: { invoiceId: other.id } });
    expect(payment).toMatchObject({ invoiceId: other.id, amount: 123.45, status: 'pending', source: 'bank_statement' });
    expect(await unmatchedOfThis()).toEqual([]);
    expect((await listUnmatchedEntries()).total).toBe(waiting - 1);
    expect((await apiFailure(assignEntry({ actor: b.user, id: unmatched[0].id, input: { invoiceId: other.id } }))).status).toBe(409);
    expect(await activityRows('bank_entry_assigned', unmatched[0].id)).toHaveLength(1);
    // Still nothing twice after the assignment.
    expect((await importBankStatement({ actor: b.user, xml })).duplicates).toBe(2);

    // The matched payment is confirmed like any other and settles the invoice.
    await confirmPayment({ actor: b.manager, id: created[0].id });
    expect((await selectOne<{ status: string }>('SELECT status FROM invoices WHERE id = :id', { id: invoice.id }))!.status).toBe('paid');
  });

  it('matches by the digits of the reference and disambiguates same-numbered invoices by amount; refuses amounts above the open amount', async () => {
    const b = await book();
    const customer = await insertCustomer();
    const c1 = await financeableClient();
    const c2 = await financeableClient();
    const number = `R-2027-${Date.now() % 10000}`;
    const small = await financedInvoice(b, { clientId: c1.id, customerId: customer.id, amount: '100.00', invoiceNumber: number });
    await financedInvoice(b, { clientId: c2.id, customerId: customer.id, amount: '900.00', invoiceNumber: number });
    const digits = number.replace(/\D/g, '');
    const result = await importBankStatement({
      actor: b.user,
      xml: camt053Fixture({
        iban: factorAccount().iban,
        statementId: `IZV-D-${Date.now()}`,
        entries: [
          { ref: `D-${Date.now()}-1`, amount: '100.00', creditorRef: `HR00 ${digits}` },
          { ref: `D-${Date.now()}-2`, amount: '5000.00', ustrd: `Racun ${number}` },
        ],
      }),
    });
    expect(result).toMatchObject({ matched: 1, unmatched: 1 });
    expect((await listPayments({ q: number, tab: 'pending' })).items.map((p) => p.invoiceId)).toEqual([small.id]);
    const entry = (await listUnmatchedEntries()).items.find((e) => e.amount === 5000)!;
    expect(entry.reason).toMatch(/above the open amount/);
  });

  it('gives every financed invoice its own HR00 reference, never changed, and matches a collection by it before any look-alike number', async () => {
    const b = await book();
    const customer = await insertCustomer();
    const client = await financeableClient();
    const referenced = await financedInvoice(b, { clientId: client.id, customerId: customer.id, amount: '300.00' });
    const reference = (await selectOne<{ payment_reference: string }>('SELECT payment_reference FROM invoices WHERE id = :id', { id: referenced.id }))!.payment_reference;
    expect(reference).toMatch(/^HR00 \d{4}-7-\d{6,9}$/);
    // An invoice numbered with the reference's digits: it looks like the reference but is not the one the debtor was given.
    const lookalike = await financedInvoice(b, { clientId: client.id, customerId: customer.id, amount: '300.00', invoiceNumber: reference.slice(5), issuedDaysAgo: 6 });
    const other = (await selectOne<{ payment_reference: string }>('SELECT payment_reference FROM invoices WHERE id = :id', { id: lookalike.id }))!.payment_reference;
    expect(other).not.toBe(reference);
    await expect(selectRows(`UPDATE invoices SET payment_reference = :other WHERE id = :id RETURNING id`, { id: referenced.id, other: 'HR00 2026-7-999999' })).rejects.toThrow(
      /never changes/,
    );

    const result = await importBankStatement({
      actor: b.user,
      xml: camt053Fixture({ iban: factorAccount().iban, statementId: `IZV-R-${Date.now()}`, entries: [{ ref: `R-${Date.now()}-1`, amount: '300.00', creditorRef: reference }] }),
    });
    expect(result).toMatchObject({ matched: 1, unmatched: 0 });
    const payments = await selectRows<{ invoice_id: string }>(`SELECT invoice_id FROM payments WHERE invoice_id IN (:ids)`, { ids: [referenced.id, lookalike.id] });
    expect(payments).toEqual([{ invoice_id: referenced.id }]);
  });

  it('refuses unsafe or foreign files and answers over the API', async () => {
    const b = await book();
    const xxe = `<?xml version="1.0"?><!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/passwd">]><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08">&x;</Document>`;
    expect(await apiFailure(importBankStatement({ actor: b.user, xml: xxe }))).toMatchObject({ status: 400, body: { message: 'XML with a DOCTYPE/entities is not accepted' } });
    expect((await apiFailure(importBankStatement({ actor: b.user, xml: '<Document xmlns="urn:other"/>' }))).status).toBe(400);
    const foreign = camt053Fixture({ iban: newIban(), statementId: 'X-1', entries: [] });
    expect((await apiFailure(importBankStatement({ actor: b.user, xml: foreign }))).status).toBe(409);
    expect(() => parseCamt053(camt053Fixture({ iban: factorAccount().iban, statementId: 'X-2', entries: [{ ref: 'A', amount: '1.001' }] }))).toThrow();

    const cookie = await signedInCookie(b.user.id);
    const xml = camt053Fixture({ iban: factorAccount().iban, statementId: `API-${Date.now()}`, entries: [{ ref: `API-${Date.now()}`, amount: '10.00', ustrd: 'nepoznato' }] });
    const form = new FormData();
    form.append('file', new Blob([xml], { type: 'application/xml' }), 'izvod.xml');
    const response = (await importAction({
      request: new Request('http://localhost/api/bank-statements', { method: 'POST', body: form, headers: { Cookie: cookie } }),
      params: {},
      context: {},
    })) as Response;
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ matched: 0, unmatched: 1, duplicates: 0 });
    const raw = (await importAction({
      request: new Request('http://localhost/api/bank-statements', { method: 'POST', body: xml, headers: { Cookie: cookie, 'Content-Type': 'application/xml' } }),
      params: {},
      context: {},
    })) as Response;
    expect(await raw.json()).toMatchObject({ duplicates: 1, alreadyImported: true });
    const list = (await unmatchedLoader({
      request: new Request('http://localhost/api/bank-statements/unmatched', { headers: { Cookie: cookie } }),
      params: {},
      context: {},
    })) as Response;
    expect(Number(list.headers.get('X-Total-Count'))).toBeGreaterThanOrEqual(1);
    expect(await selectRows('SELECT 1 FROM bank_statements WHERE file_name = :f', { f: 'izvod.xml' })).not.toHaveLength(0);
  });

  it('refuses impossible dates, control characters, deep nesting and broken multipart with 400, storing nothing', async () => {
    const b = await book();
    const cookie = await signedInCookie(b.user.id);
    const before = { statements: await count('bank_statements'), entries: await count('bank_statement_entries'), payments: await count('payments') };
    let serial = 0;
    const statement = (entry: Parameters<typeof camt053Fixture>[0]['entries'][number], date?: string) =>
      camt053Fixture({ iban: factorAccount().iban, statementId: `BAD-${Date.now()}-${(serial += 1)}`, entries: [entry], date });
    const refusals: Array<[string, string | RegExp]> = [
      [statement({ ref: `D-${Date.now()}`, amount: '10.00', bookingDate: '2026-02-30' }), `Ntry[1]/BookgDt/Dt: "2026-02-30" is not a valid date`],
      [statement({ ref: `D-${Date.now()}`, amount: '10.00', bookingDate: '9999-99-99' }), `Ntry[1]/BookgDt/Dt: "9999-99-99" is not a valid date`],
      [statement({ ref: `D-${Date.now()}`, amount: '10.00' }, '2026-02-31'), /is not a valid date$/],
      // The fixture escapes &, so the reference goes in afterwards.
      [
        statement({ ref: `C-${Date.now()}`, amount: '10.00', ustrd: 'Uplata racuna' }).replace('Uplata racuna', 'Uplata &#1; racuna'),
        'XML text contains a control character (&#1;)',
      ],
      // The fixture's escaping drops characters XML cannot carry, so the raw NUL goes in afterwards too.
      [
        statement({ ref: `C-${Date.now()}`, amount: '10.00', debtorName: 'Kupac NUL d.d.' }).replace('Kupac NUL d.d.', 'Kupac \u0000 d.d.'),
        'XML text contains a control character',
      ],
      [statement({ ref: `C-${Date.now()}`, amount: '10.00', debtorName: 'K'.repeat(300) }), "Ntry[1]: the debtor's name is longer than 255 characters"],
      [`<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08">${'<a>'.repeat(20_000)}${'</a>'.repeat(20_000)}</Document>`, /^Malformed XML/],
    ];
    for (const [xml, message] of refusals) {
      const failure = await apiFailure(importBankStatement({ actor: b.user, xml }));
      expect(failure.status, String(message)).toBe(400);
      expect(failure.body.message, String(message)).toMatch(typeof message === 'string' ? new RegExp(`^${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`) : message);
      expect(failure.body.errors?.file, String(message)).toBeDefined();
    }
    const post = (body: BodyInit, type: string) =>
      importAction({
        request: new Request('http://localhost/api/bank-statements', { method: 'POST', body, headers: { Cookie: cookie, 'Content-Type': type } }),
        params: {},
        context: {},
      }) as Promise<Response>;
    expect((await apiFailure(post('--x\r\nbroken', 'multipart/form-data; boundary=x'))).status).toBe(400);
    expect((await apiFailure(post('--x\r\nbroken', 'multipart/form-data'))).status).toBe(400);
    expect((await apiFailure(post('{"file":"x"}', 'application/json'))).status).toBe(415);
    const badName = new FormData();
    badName.append('file', new Blob([statement({ ref: `N-${Date.now()}`, amount: '1.00' })], { type: 'application/xml' }), 'izvod\u0001.xml');
    const named = await apiFailure(
      importAction({ request: new Request('http://localhost/api/bank-statements', { method: 'POST', body: badName, headers: { Cookie: cookie } }), params: {}, context: {} }),
    );
    expect(named).toMatchObject({ status: 400, body: { errors: { file: ['Contains characters that are not allowed'] } } });
    expect({ statements: await count('bank_statements'), entries: await count('bank_statement_entries'), payments: await count('payments') }).toEqual(before);
  });
});
