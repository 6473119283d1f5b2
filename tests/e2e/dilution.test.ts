import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { ApiClient } from '../support/api-client.ts';
import { expectAccessibleInEachAppearance } from '../support/accessibility.ts';
import { newStrictPage } from '../support/browser.ts';
import { browserAndAdmin, staffSession } from '../support/sessions.ts';
import { approvedInvoice, clientAndDebtor, zagrebDay } from '../support/e2e-steps.ts';

/**
 * Dilution on the invoice page (docs/screens.md, docs/collections.md#dilution-and-disputes-resolved):
 * a manager enters a credit note on a financed invoice (without JavaScript),
 * is refused one above what is open, and resolves the debtor's dispute as
 * reduced (with JavaScript); the invoice's figures, its credit notes over the
 * API and the client's dilution rate follow. The page passes axe in each
 * appearance with both sections shown.
 */
const baseUrl = inject('baseUrl');
let browser: Browser;
let admin: ApiClient;
let closeDatabase: (() => Promise<void>) | undefined;

beforeAll(async () => ({ browser, admin } = await browserAndAdmin()));
afterAll(async () => {
  await closeDatabase?.();
  await browser?.close();
});

const money = (value: number) => new Intl.NumberFormat('hr-HR', { style: 'currency', currency: 'EUR', minimumFractionDigits: 2 }).format(value);

/**
 * The debtor opens a dispute through its link (another part of the product):
 * here written as that part writes it, on the app's database.
 */
async function openDispute(invoiceId: string, reason: string) {
  process.env.DATABASE_URL = inject('appDatabaseUrl');
  const [{ execute }, { closeSequelize }] = await Promise.all([import('../../app/db.server.ts'), import('../../db/connection.ts')]);
  closeDatabase = closeSequelize;
  await execute(`INSERT INTO invoice_disputes (invoice_id, reason, source, opened_ip) VALUES (:invoiceId, :reason, 'debtor', '10.9.8.7')`, { invoiceId, reason });
  await execute(`UPDATE invoices SET disputed = true, dispute_reason = :reason WHERE id = :invoiceId`, { invoiceId, reason });
}

describe('dilution on the invoice page', () => {
  it('a manager enters a credit note and resolves a dispute; the figures, the API and the dilution rate follow', async () => {
    const manager = (await staffSession(admin, 'manager', { label: 'dilution-manager', firstName: 'Iva', lastName: 'Odobrava', ownPassword: 'Own-password-7' })).client;
    const { client, customer } = await clientAndDebtor(admin);
    const invoiceNumber = `E2E-DILUTION-${Date.now()}`;
    const id = await approvedInvoice(admin, manager, {
      clientId: client.id,
      customerId: customer.id,
      invoiceNumber,
      issueDate: zagrebDay(-1),
      amount: 10000,
      description: 'E2E razvodnjavanje',
    });
    expect((await manager.put(`/api/invoices/${id}/finance`)).status).toBe(200);
    const financed = (await admin.get(`/api/invoices/${id}`)).json as unknown as { factorAmount: number };
    const rateBefore = ((await admin.get(`/api/clients/${client.id}`)).json as unknown as { dilution: { creditNotes: number; financed: number } }).dilution;

    // Without JavaScript: a credit note above what is open is refused in the form; one within it is recorded.
    const plain = await newStrictPage(browser, { sessionCookie: manager.cookie, javaScriptEnabled: false });
    await plain.page.goto(`${baseUrl}/invoices/${id}`);
    await plain.page.getByRole('heading', { name: 'Enter a credit note' }).waitFor();
    await plain.page.getByLabel('Credit note number *').fill('ODB-E2E-1');
    await plain.page.getByLabel('Amount (EUR) *').fill('10000.01');
    await plain.page.getByLabel('Reason *').fill('Povrat dijela robe');
    await gotoAfter(plain.page, () => plain.page.getByTestId('credit-note-submit').click());
    await plain.page.getByText('Credit note exceeds what is still open on invoice').waitFor();
    expect(await plain.page.getByTestId('credit-note-row').count()).toBe(0);
    await plain.page.getByLabel('Amount (EUR) *').fill('1500.00');
    await gotoAfter(plain.page, () => plain.page.getByTestId('credit-note-submit').click());
    await plain.page.getByTestId('credit-note-row').first().waitFor();
    expect(plain.page.url()).toContain(`/invoices/${id}`);
    await expect.poll(() => plain.page.getByTestId('credited-amount').textContent()).toContain(money(1500));
    await plain.close();

    // With JavaScript: the debtor's dispute is resolved as reduced to 7,000.00 → a credit note of 10,000.00 − 1,500.00 − 7,000.00.
    await openDispute(id, 'Isporučeno 7 od 10 strojeva');
    const { page, errors, close } = await newStrictPage(browser, { sessionCookie: manager.cookie });
    await page.goto(`${baseUrl}/invoices/${id}`);
    await page.getByTestId('open-dispute').getByText('Isporučeno 7 od 10 strojeva').waitFor();
    await page.waitForLoadState('networkidle');
    await expectAccessibleInEachAppearance(page, baseUrl, `/invoices/${id} with a dispute and a credit note`, async () => {
      await page.goto(`${baseUrl}/invoices/${id}`);
      await page.getByTestId('dispute-resolve-form').waitFor();
    });
    await page.getByLabel('Outcome *').selectOption('reduced');
    await page.getByLabel('Agreed amount (EUR, with Reduced)').fill('7000.00');
    await page.getByLabel('Note *').fill('Dogovoreno 7 strojeva');
    await page.getByTestId('dispute-resolve-submit').click();
    await page.locator('.toast').getByText('Dispute resolved').waitFor();
    await page.getByTestId('resolved-dispute').getByText('Reduced (agreed amount)').waitFor();
    expect(await page.getByTestId('open-dispute').count()).toBe(0);
    await expect.poll(() => page.getByTestId('credit-note-row').count()).toBe(2);
    await expect.poll(() => page.getByTestId('credited-amount').textContent()).toContain(money(3000));
    expect(errors).toEqual([]);
    await close();

    const invoice = (await admin.get(`/api/invoices/${id}`)).json as unknown as { creditedAmount: number; disputed: boolean; status: string };
    expect(invoice).toMatchObject({ creditedAmount: 3000, disputed: false, status: 'financed' });
    const notes = await admin.get(`/api/invoices/${id}/credit-notes`);
    expect(notes.headers.get('X-Total-Count')).toBe('2');
    // 10,000.00 − 3,000.00 = 7,000.00 owed against the advance: the excess was charged back with the dispute's credit note.
    const excess = Math.max(0, Math.round(financed.factorAmount * 100) - 700_000) / 100;
    expect(
      (notes.json as unknown as Array<{ number: string; amount: number; source: string; chargebackAmount: number }>).map((note) => [
        note.amount,
        note.source,
        note.chargebackAmount,
      ]),
    ).toEqual([
      [1500, 'manual', Math.max(0, Math.round(financed.factorAmount * 100) - 850_000) / 100],
      [1500, 'dispute', excess - Math.max(0, Math.round(financed.factorAmount * 100) - 850_000) / 100],
    ]);
    const rateAfter = ((await admin.get(`/api/clients/${client.id}`)).json as unknown as { dilution: { creditNotes: number; financed: number; rate: number } }).dilution;
    expect(rateAfter.creditNotes).toBeCloseTo(rateBefore.creditNotes + 3000, 2);
    // The invoice was financed before the first reading: the amount financed is the same.
    expect(rateAfter.financed).toBeCloseTo(rateBefore.financed, 2);
    expect(rateAfter.rate).toBe(Math.round((10000 * rateAfter.creditNotes) / rateAfter.financed) / 100);

    // The client page shows the same rate.
    const clientPage = await newStrictPage(browser, { sessionCookie: manager.cookie });
    await clientPage.page.goto(`${baseUrl}/clients/${client.id}`);
    expect(Number(await clientPage.page.getByTestId('dilution-rate').getAttribute('data-value'))).toBe(rateAfter.rate);
    await clientPage.close();
  });
});

/** A post without JavaScript: the browser navigates (the redirect, or the refusal's page). */
async function gotoAfter(page: Page, submit: () => Promise<unknown>) {
  await Promise.all([page.waitForNavigation(), submit()]);
}
