import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { ApiClient } from '../support/api-client.ts';
import { newStrictPage } from '../support/browser.ts';
import { browserAndAdmin } from '../support/sessions.ts';

const baseUrl = inject('baseUrl');
let browser: Browser;
let admin: ApiClient;

beforeAll(async () => ({ browser, admin } = await browserAndAdmin()));
afterAll(() => browser?.close());

function toast(page: Page, text: string) {
  return page.locator('.toast').getByText(text);
}

/** A summary card's amount as cents, read from its hr-HR text ('1.234,50 €'). */
async function cardCents(page: Page, testId: string): Promise<number> {
  const text = (await page.getByTestId(testId).getByTestId('summary-amount').textContent()) ?? '';
  const digits = text.replace(/[^\d,-]/g, '').replace(',', '.');
  return Math.round(Number(digits) * 100);
}

/** A seeded payable invoice with no payment waiting, so any small amount may be recorded on it. */
async function payableInvoice(): Promise<{ id: string; invoiceNumber: string }> {
  const payable = (await admin.get('/api/invoices/payable?limit=1000')).json as unknown as Array<{ id: string; invoiceNumber: string; openAmount: number }>;
  const pending = (await admin.get('/api/payments?status=pending&limit=1000')).json as unknown as Array<{ invoiceId: string }>;
  const busy = new Set(pending.map((p) => p.invoiceId));
  const free = payable.find((invoice) => !busy.has(invoice.id) && invoice.openAmount > 20);
  if (!free) throw new Error('the demo book has no payable invoice without a pending payment');
  return free;
}

describe('payments and collections', () => {
  it('records a payment through the dialog, confirms it, and shows it in the confirmed tab with the summary changed', async () => {
    const invoice = await payableInvoice();
    const reference = `E2E-${Date.now()}`;
    const { page, errors, close } = await newStrictPage(browser, { sessionCookie: admin.cookie });
    await page.goto(`${baseUrl}/payments`);
    await page.getByRole('heading', { name: 'Payments and collections' }).waitFor();
    await page.waitForLoadState('networkidle');
    const pendingBefore = await cardCents(page, 'summary-pending');
    const confirmedBefore = await cardCents(page, 'summary-confirmed');

    await page.getByRole('link', { name: 'Record payment' }).click();
    const dialog = page.getByRole('dialog', { name: 'Record payment' });
    await dialog.waitFor();
    // Required fields first: the browser-side schema answers with the spec's messages.
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('Invoice is required').waitFor();
    await dialog.getByText('Amount is required').waitFor();

    await dialog.getByLabel('Invoice *').selectOption(invoice.id);
    await dialog.getByLabel('Amount (EUR) *').fill('12.34');
    await dialog.getByLabel('Payment method').selectOption('bank_transfer');
    await dialog.getByLabel('Reference').fill(reference);
    await dialog.getByLabel('Notes').fill('Djelomična uplata (e2e)');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await toast(page, 'Payment recorded successfully').waitFor();
    await dialog.waitFor({ state: 'detached' });

    const row = page.getByTestId('payment-row').filter({ hasText: reference });
    await row.waitFor();
    await expect(row.getByTestId('payment-status').textContent()).resolves.toBe('Pending');
    await expect(row.getByTestId('payment-amount').textContent()).resolves.toContain('12,34');
    await expect.poll(() => cardCents(page, 'summary-pending')).toBe(pendingBefore + 1234);

    await row.getByRole('button', { name: 'Confirm' }).click();
    await toast(page, 'Payment confirmed successfully').waitFor();
    await page.getByTestId('payment-row').filter({ hasText: reference }).waitFor({ state: 'detached' });
    await expect.poll(() => cardCents(page, 'summary-pending')).toBe(pendingBefore);
    await expect.poll(() => cardCents(page, 'summary-confirmed')).toBe(confirmedBefore + 1234);

    await page.getByTestId('tab-confirmed').click();
    await page.waitForURL(/tab=confirmed/);
    const confirmed = page.getByTestId('payment-row').filter({ hasText: reference });
    await confirmed.waitFor();
    await expect(confirmed.getByTestId('payment-status').textContent()).resolves.toBe('Confirmed');
    // A confirmed payment offers no Confirm, only Refund.
    expect(await confirmed.getByRole('button', { name: 'Confirm' }).count()).toBe(0);
    await confirmed.getByRole('button', { name: 'Refund' }).waitFor();

    // The API agrees: confirmed, processed, on the chosen invoice.
    const listed = (await admin.get(`/api/payments?status=confirmed&q=${reference}`)).json as unknown as Array<Record<string, unknown>>;
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ invoiceNumber: invoice.invoiceNumber, amount: 12.34, status: 'confirmed', reference });
    expect(listed[0].processedAt).toBeTruthy();
    expect(errors.filter((error) => !/status of 400/.test(error))).toEqual([]);
    await close();
  });

  it('works without JavaScript: the ?new=1 panel records a payment and the payouts tab lists payouts', async () => {
    const invoice = await payableInvoice();
    const reference = `NOJS-${Date.now()}`;
    const { page, close } = await newStrictPage(browser, { sessionCookie: admin.cookie, javaScriptEnabled: false });
    await page.goto(`${baseUrl}/payments`);
    await page.getByRole('link', { name: 'Record payment' }).click();
    const panel = page.getByTestId('record-panel');
    await panel.waitFor();
    await panel.getByLabel('Invoice *').selectOption(invoice.id);
    await panel.getByLabel('Amount (EUR) *').fill('1.05');
    await panel.getByLabel('Reference').fill(reference);
    await panel.getByRole('button', { name: 'Save' }).click();
    await page.getByTestId('payment-row').filter({ hasText: reference }).waitFor();
    expect(new URL(page.url()).searchParams.get('new')).toBeNull();

    await page.getByTestId('tab-payouts').click();
    await page.getByTestId('payouts-table').waitFor();
    expect(await page.getByTestId('payout-row').count()).toBeGreaterThan(0);
    await close();
  });
});

describe('payouts and bank statements on the page', () => {
  it('imports a camt.053 through the form, lists the unmatched entry, and exports a pending payout as pain.001', async () => {
    const { camt053Fixture } = await import('../../app/banking/camt053-fixture.ts');
    const { factorAccount } = await import('../../app/banking/factor-account.server.ts');
    const { page, errors, close } = await newStrictPage(browser, { sessionCookie: admin.cookie });
    const stamp = Date.now();
    const xml = camt053Fixture({
      iban: factorAccount().iban,
      statementId: `E2E-${stamp}`,
      entries: [{ ref: `E2E-ENTRY-${stamp}`, amount: '77.70', ustrd: `Nepoznata uplata ${stamp}`, debtorName: 'Netko d.o.o.' }],
    });
    await page.goto(`${baseUrl}/payments?tab=bank`);
    await page.waitForLoadState('networkidle');
    await page.getByLabel('Bank statement file').setInputFiles({ name: 'izvod.xml', mimeType: 'application/xml', buffer: Buffer.from(xml) });
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await page.getByTestId('import-result').getByText('Matched: 0, unmatched: 1, already imported: 0').waitFor();
    await page
      .getByTestId('unmatched-row')
      .filter({ hasText: `Nepoznata uplata ${stamp}` })
      .waitFor();

    await page.goto(`${baseUrl}/payments?tab=payouts`);
    const first = page.getByTestId('payout-row').first();
    await first.getByRole('checkbox').check();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export SEPA file (pain.001)' }).click()]);
    const path = await download.path();
    const { readFileSync } = await import('node:fs');
    const file = readFileSync(path!, 'utf8');
    expect(file).toContain('urn:iso:std:iso:20022:tech:xsd:pain.001.001.09');
    expect(file).toContain('<NbOfTxs>1</NbOfTxs>');
    expect(errors).toEqual([]);
    await close();
  });
});
