import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ApiClient, signInAsAdmin } from '../support/api-client.ts';
import { expectAccessible } from '../support/accessibility.ts';
import { launchBrowser, newStrictPage } from '../support/browser.ts';
import { approvedInvoice, clientAndDebtor } from '../support/e2e-steps.ts';

/**
 * The fee documents of a settlement end to end (docs/decisions/015-fee-documents-at-settlement.md):
 * an invoice financed over the API gets its fee invoice; the settlement's
 * function (called here on the app's database, as the settlement calls it in
 * its transaction) adds a completing fee invoice and a credit note; the worker
 * delivers both through the sandbox intermediary; the invoice page lists the
 * three documents with their kind, amounts and status (with and without
 * JavaScript), /integrations/einvoicing names each kind and the invoice it
 * refers to, and the credit note downloads as a UBL CreditNote.
 */

const baseUrl = inject('baseUrl');
let browser: Browser;
let admin: ApiClient;

interface EInvoice {
  id: string;
  number: string;
  status: string;
  purpose: string;
  typeCode: string;
  precedingNumber: string | null;
  netAmount: number;
  vatAmount: number;
  grossAmount: number;
}

const money = (value: number) => new Intl.NumberFormat('hr-HR', { style: 'currency', currency: 'EUR', minimumFractionDigits: 2 }).format(value);
const squash = (text: string | null) => (text ?? '').replace(/\s+/g, ' ').trim();

async function manager(): Promise<ApiClient> {
  const email = `fee-docs-manager-${randomUUID().slice(0, 8)}@finflow.local`;
  const password = 'Temp-password-1';
  const created = await admin.post('/api/admin/users', { email, firstName: 'Ana', lastName: 'Zatvara', role: 'manager', password });
  expect(created.status).toBe(201);
  expect((await admin.put(`/api/admin/users/${created.json.id}/otp`, { otpEnabled: false })).status).toBe(200);
  const session = new ApiClient();
  expect((await session.post('/api/auth/login', { email, password })).json).toEqual({ requiresTotp: false, needsTotpSetup: false });
  return session;
}

async function documentsOf(invoiceNumber: string): Promise<EInvoice[]> {
  const list = await admin.get(`/api/einvoices?q=${encodeURIComponent(invoiceNumber)}`);
  expect(list.status).toBe(200);
  return list.json as unknown as EInvoice[];
}

const feeRow = (page: Page, number: string) => page.locator(`[data-testid="fee-document"][data-number="${number}"]`);

/** The app's own settlement function on the app's database (the test process connects to it like the app). */
async function settlementFunctions() {
  process.env.DATABASE_URL = inject('appDatabaseUrl');
  const [{ issueFeeSettlementDocument }, { inTransaction }, { stopSender }, { closeSequelize }] = await Promise.all([
    import('../../app/einvoices/fee-settlement.server.ts'),
    import('../../app/db.server.ts'),
    import('../../app/jobs/boss.server.ts'),
    import('../../db/connection.ts'),
  ]);
  return {
    settle: (invoiceId: string, netCents: number) =>
      inTransaction((transaction) => issueFeeSettlementDocument(invoiceId, { netCents, reason: 'Konačni obračun naknade na stvarne dane.' }, transaction)),
    close: async () => {
      await stopSender();
      await closeSequelize();
    },
  };
}

let close: (() => Promise<void>) | undefined;

beforeAll(async () => {
  browser = await launchBrowser();
  admin = await signInAsAdmin();
});
afterAll(async () => {
  await close?.();
  await browser?.close();
});

describe('fee documents at settlement', () => {
  it('a completing invoice and a credit note are delivered, listed on the invoice page and the e-invoicing page, and the credit note is a UBL CreditNote', async () => {
    const { client, customer } = await clientAndDebtor(admin);
    const invoiceNumber = `E2E-FEE-DOCS-${Date.now()}`;
    const b = await manager();
    const id = await approvedInvoice(admin, b, { clientId: client.id, customerId: customer.id, invoiceNumber, amount: 5432.1, description: 'E2E dokumenti za naknadu' });
    expect((await b.put(`/api/invoices/${id}/finance`)).status).toBe(200);
    const [first] = await documentsOf(invoiceNumber);
    expect(first).toMatchObject({ purpose: 'financing_fee', typeCode: '380', precedingNumber: null });

    const functions = await settlementFunctions();
    close = functions.close;
    // 12.34 net: VAT 3.085 → 3.09; 5.67 credited: VAT 1.4175 → 1.42.
    const completion = (await functions.settle(id, 1234))!;
    const credit = (await functions.settle(id, -567))!;
    expect([completion.grossCents, credit.grossCents]).toEqual([1543, -709]);

    // The worker delivers both to the sandbox intermediary.
    await expect
      .poll(async () => (await documentsOf(invoiceNumber)).map((document) => [document.number, document.status]), { timeout: 30_000, interval: 500 })
      .toEqual([
        [credit.number, 'delivered'],
        [completion.number, 'delivered'],
        [first.number, 'delivered'],
      ]);
    const documents = await documentsOf(invoiceNumber);
    expect(documents.map((document) => [document.purpose, document.typeCode, document.precedingNumber, document.grossAmount])).toEqual([
      ['fee_credit', '381', first.number, 7.09],
      ['fee_completion', '380', first.number, 15.43],
      ['financing_fee', '380', null, first.grossAmount],
    ]);

    // The invoice page: the three documents in the order issued; a credit shown with a minus.
    const { page, errors, close: closePage } = await newStrictPage(browser, { sessionCookie: admin.cookie });
    await page.goto(`${baseUrl}/invoices/${id}`);
    await page.getByTestId('fee-documents').waitFor();
    expect(await page.getByTestId('fee-document').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-number')))).toEqual([
      first.number,
      completion.number,
      credit.number,
    ]);
    expect(squash(await feeRow(page, first.number).getByTestId('fee-document-kind').innerText())).toBe('Račun za naknadu');
    expect(squash(await feeRow(page, completion.number).getByTestId('fee-document-kind').innerText())).toBe(`Dopunski račun za naknadu to ${first.number}`);
    expect(squash(await feeRow(page, credit.number).getByTestId('fee-document-kind').innerText())).toBe(`Odobrenje (knjižno) to ${first.number}`);
    expect(squash(await feeRow(page, completion.number).getByTestId('fee-document-gross').textContent())).toBe(squash(money(15.43)));
    expect(squash(await feeRow(page, credit.number).getByTestId('fee-document-net').textContent())).toBe(squash(money(-5.67)));
    expect(squash(await feeRow(page, credit.number).getByTestId('fee-document-gross').textContent())).toBe(squash(money(-7.09)));
    expect(squash(await feeRow(page, credit.number).getByTestId('einvoice-status').textContent())).toBe('Delivered');
    await expectAccessible(page, 'invoice page with its fee documents');

    // The credit note's UBL, downloaded from the page: a CreditNote, positive amounts, referring to the fee invoice.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: `Download the UBL of ${credit.number}` }).click()]);
    expect(download.suggestedFilename()).toBe(`${credit.number}.xml`);
    const xml = fs.readFileSync((await download.path())!, 'utf8');
    expect(xml).toContain('<CreditNote xmlns="urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2"');
    expect(xml).toContain('<cbc:CreditNoteTypeCode>381</cbc:CreditNoteTypeCode>');
    expect(xml).toContain(`<cbc:ID>${first.number}</cbc:ID>`);
    expect(xml).toContain('<cbc:PayableAmount currencyID="EUR">7.09</cbc:PayableAmount>');

    // /integrations/einvoicing names each kind and the invoice it refers to.
    await page.goto(`${baseUrl}/integrations/einvoicing`);
    const listed = page.locator(`[data-testid="outgoing-einvoice"][data-number="${credit.number}"]`);
    await listed.waitFor();
    expect(squash(await listed.getByTestId('fee-document-kind').innerText())).toBe(`Odobrenje (knjižno) to ${first.number}`);
    expect(squash(await listed.textContent())).toContain(squash(money(-7.09)));
    expect(errors).toEqual([]);
    await closePage();

    // Without JavaScript the page renders the same list.
    const plain = await newStrictPage(browser, { sessionCookie: admin.cookie, javaScriptEnabled: false });
    await plain.page.goto(`${baseUrl}/invoices/${id}`);
    expect(await plain.page.getByTestId('fee-document').count()).toBe(3);
    expect(plain.errors).toEqual([]);
    await plain.close();
  });
});
