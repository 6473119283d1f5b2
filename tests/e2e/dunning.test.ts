import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { ApiClient } from '../support/api-client.ts';
import { expectAccessibleInEachAppearance, gotoWithoutJavaScript } from '../support/accessibility.ts';
import { newStrictPage } from '../support/browser.ts';
import { pdf417InPdf } from '../support/pdf-barcode.ts';
import { pdfText } from '../support/pdf-text.ts';
import { browserAndAdmin, staffSession } from '../support/sessions.ts';

const baseUrl = inject('baseUrl');
let browser: Browser;
let admin: ApiClient;

beforeAll(async () => ({ browser, admin } = await browserAndAdmin()));
afterAll(() => browser?.close());

/** The demo book's first invoice with a reminder sent (db/seed/demo/dunning.ts), read from the activity log. */
async function dunnedInvoice(): Promise<{ id: string; number: string; paymentReference: string }> {
  const logs = await admin.get('/api/activity-logs?action=dunning_notice_sent&limit=1');
  expect(logs.status).toBe(200);
  const [entry] = logs.json as unknown as Array<{ entityId: string }>;
  const invoice = await admin.get(`/api/invoices/${entry.entityId}`);
  return { id: entry.entityId, number: String(invoice.json.invoiceNumber), paymentReference: String(invoice.json.paymentReference) };
}

describe('dunning on the pages', () => {
  it('an admin changes the reminder levels on /settings without JavaScript; days that do not rise are refused', { timeout: 180_000 }, async () => {
    const { client } = await staffSession(admin, 'admin', { label: 'dunning-admin', ownPassword: 'Own-password-3' });
    const { page, errors, close } = await newStrictPage(browser, { sessionCookie: client.cookie, javaScriptEnabled: false });
    try {
      await page.goto(`${baseUrl}/settings`);
      const card = page.getByTestId('dunning-levels');
      await card.getByRole('heading', { name: 'Reminders to debtors (dunning)' }).waitFor();
      await expect(card.getByLabel('Level 3: days from the due date').inputValue()).resolves.toBe('7');

      // Level 2 before level 1: refused, the entered values kept, nothing saved.
      await card.getByLabel('Level 2: days from the due date').fill('-10');
      await card.getByRole('button', { name: 'Save levels' }).click();
      await card.getByText("Each level's day must come after the previous level's").waitFor();
      await expect(card.getByLabel('Level 2: days from the due date').inputValue()).resolves.toBe('-10');
      await page.goto(`${baseUrl}/settings`);
      await expect(card.getByLabel('Level 2: days from the due date').inputValue()).resolves.toBe('0');

      // Level 3 a week later and level 1 switched off: saved and shown again.
      await card.getByLabel('Level 3: days from the due date').fill('14');
      await card.getByLabel('Send level 1').uncheck();
      // Without JavaScript no toast shows: the saved values on the page that follows are the answer.
      await Promise.all([page.waitForURL(`${baseUrl}/settings`), card.getByRole('button', { name: 'Save levels' }).click()]);
      await page.goto(`${baseUrl}/settings`);
      await expect(card.getByLabel('Level 3: days from the due date').inputValue()).resolves.toBe('14');
      await expect(card.getByLabel('Send level 1').isChecked()).resolves.toBe(false);
      // The audit runs axe in the page, so in a page with JavaScript, showing /settings as it renders without.
      const audited = await newStrictPage(browser, { sessionCookie: client.cookie });
      try {
        await expectAccessibleInEachAppearance(audited.page, baseUrl, 'settings with the reminder levels, without JavaScript', () =>
          gotoWithoutJavaScript(audited.page, `${baseUrl}/settings`),
        );
      } finally {
        await audited.close();
      }

      // Back to the defaults, so the rest of the run sees the book as seeded.
      await page.goto(`${baseUrl}/settings`);
      await card.getByLabel('Level 3: days from the due date').fill('7');
      await card.getByLabel('Send level 1').check();
      await Promise.all([page.waitForURL(`${baseUrl}/settings`), card.getByRole('button', { name: 'Save levels' }).click()]);
      await page.goto(`${baseUrl}/settings`);
      await expect(card.getByLabel('Level 3: days from the due date').inputValue()).resolves.toBe('7');
      // The refused post answered 400, as a refusal should; nothing else went wrong.
      expect(errors.filter((error) => !error.includes('status of 400'))).toEqual([]);
    } finally {
      await close();
    }
  });

  it('a manager sees the reminders, puts the invoice on hold and lifts it, and downloads the payment slip', { timeout: 120_000 }, async () => {
    const { client } = await staffSession(admin, 'manager', { label: 'dunning-manager', firstName: 'Opomena', lastName: 'Voditelj', ownPassword: 'Own-password-4' });
    const invoice = await dunnedInvoice();
    const { page, errors, close } = await newStrictPage(browser, { sessionCookie: client.cookie });
    try {
      await page.goto(`${baseUrl}/invoices/${invoice.id}`);
      await page.getByRole('heading', { name: 'Reminders to the debtor' }).waitFor();
      const history = page.getByTestId('dunning-history');
      await history.locator('tr[data-level="1"][data-status="sent"]').waitFor();
      await history
        .getByText(/^Sent to .+@/)
        .first()
        .waitFor();
      await expect(page.getByTestId('dunning-hold-state').textContent()).resolves.toBe("Reminders are sent on the levels' days.");

      // The hold with its reason; the page says who put it and why.
      await page.getByLabel('Reason for the hold').fill('Dužnik osporava isporuku, provjeravamo s klijentom');
      await page.getByRole('button', { name: 'Put reminders on hold' }).click();
      await page.getByText(`Reminders of invoice ${invoice.number} put on hold`).first().waitFor();
      await page
        .getByTestId('dunning-hold-state')
        .getByText(/On hold since .*Opomena Voditelj.*Dužnik osporava isporuku/)
        .waitFor();
      const held = await admin.get(`/api/activity-logs?action=dunning_hold_set&entityId=${invoice.id}`);
      expect((held.json as unknown as Array<{ details: { reason: string } }>)[0].details.reason).toBe('Dužnik osporava isporuku, provjeravamo s klijentom');
      await expectAccessibleInEachAppearance(page, baseUrl, 'invoice with reminders, on hold', () => page.goto(`${baseUrl}/invoices/${invoice.id}`));

      await page.getByLabel('Note on lifting (optional)').fill('Klijent potvrdio isporuku');
      await page.getByRole('button', { name: 'Lift the hold' }).click();
      await page.getByText(`Hold on the reminders of invoice ${invoice.number} lifted`).first().waitFor();
      await page.getByRole('button', { name: 'Put reminders on hold' }).waitFor();

      // The current slip, as the link downloads it: the PDF names the invoice and its barcode carries the reference.
      const href = await page.getByTestId('payment-slip-link').getAttribute('href');
      const download = await page.request.get(`${baseUrl}${href}`);
      expect(download.status()).toBe(200);
      expect(download.headers()['content-type']).toContain('application/pdf');
      const pdf = new Uint8Array(await download.body());
      expect(await pdfText(pdf)).toContain(`Uplatnica za fakturu ${invoice.number}`);
      const [symbol] = await pdf417InPdf(pdf);
      const fields = new TextDecoder('iso-8859-2').decode(symbol).split('\n');
      expect(fields.slice(0, 2)).toEqual(['HRVHUB30', 'EUR']);
      expect(fields.slice(10, 13)).toEqual(['HR00', invoice.paymentReference.slice(5), 'OTHR']);
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });
});
