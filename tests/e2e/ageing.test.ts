import fs from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { AgeingReport } from '../../app/analytics/ageing.server.ts';
import { expectAccessibleInEachAppearance, gotoWithoutJavaScript, settle } from '../support/accessibility.ts';
import type { ApiClient } from '../support/api-client.ts';
import { newStrictPage } from '../support/browser.ts';
import { browserAndAdmin } from '../support/sessions.ts';
import { zagrebDay } from '../support/e2e-steps.ts';

/**
 * The ageing tab of /analytics on the demo book (docs/collections.md#ageing):
 * a staff member picks a day, switches between clients and customers, drills
 * down from a row to its invoices and on to an invoice, and downloads the
 * CSV; every figure on the page and in the file is the API's for the same
 * day. Then the page with and without JavaScript through axe.
 */

const baseUrl = inject('baseUrl');
let browser: Browser;
let admin: ApiClient;

beforeAll(async () => ({ browser, admin } = await browserAndAdmin()));
afterAll(() => browser?.close());

async function report(query: string): Promise<AgeingReport> {
  const response = await admin.get(`/api/analytics/ageing?${query}`);
  expect(response.status).toBe(200);
  return response.json as unknown as AgeingReport;
}

/** The page's totals row and first row hold the API's figures (data-value carries the exact EUR number). */
async function expectShows(page: Page, data: AgeingReport) {
  // The two views share their totals, so the rows (not the totals) say the page has switched.
  await expect.poll(() => page.getByTestId('ageing-row').first().getAttribute('data-party')).toBe(data.rows[0].id);
  await expect.poll(() => page.getByTestId('ageing-totals-total').getAttribute('data-value')).toBe(String(data.totals.total));
  for (const key of ['notDue', 'days1to30', 'days31to60', 'days61to90', 'over90'] as const) {
    expect(await page.getByTestId(`ageing-totals-${key}`).getAttribute('data-value'), key).toBe(String(data.totals[key]));
  }
  expect(await page.getByTestId('ageing-totals-invoices').textContent()).toBe(String(data.totals.invoices));
  expect(await page.getByTestId('ageing-row').count()).toBe(Math.min(data.count, 25));
  expect(await page.getByTestId(`ageing-by-${data.by}`).getAttribute('aria-current')).toBe('true');
}

describe('the ageing report', () => {
  it('picks a day, switches by client and by customer, drills down to an invoice, and downloads the CSV of what it shows', { timeout: 120_000 }, async () => {
    const { page, errors, close } = await newStrictPage(browser, { sessionCookie: admin.cookie });
    await page.goto(`${baseUrl}/analytics`);
    await page.getByTestId('tab-ageing').click();
    await page.waitForURL(/tab=ageing/);
    const today = await report('by=client');
    expect(today.count).toBeGreaterThan(0);
    await expectShows(page, today);
    expect(await page.getByTestId('ageing-as-of').inputValue()).toBe(zagrebDay(0));

    // A day a month back, through the form.
    const asOf = zagrebDay(-30);
    await page.getByTestId('ageing-as-of').fill(asOf);
    await page.getByRole('button', { name: 'Show' }).click();
    await page.waitForURL(new RegExp(`asOf=${asOf}`));
    const past = await report(`asOf=${asOf}&by=client`);
    await expectShows(page, past);

    // By customer keeps the day.
    await page.getByTestId('ageing-by-customer').click();
    await page.waitForURL(/by=customer/);
    expect(new URL(page.url()).searchParams.get('asOf')).toBe(asOf);
    const byCustomer = await report(`asOf=${asOf}&by=customer`);
    await expectShows(page, byCustomer);
    // The two views hold the same open book.
    expect(byCustomer.totals).toEqual(past.totals);

    // The first customer's total opens its invoices: as many as the API lists, summing to the cell.
    const first = byCustomer.rows[0];
    await page.getByTestId(`ageing-${first.id}-total`).getByRole('link').click();
    await page.waitForURL(new RegExp(`party=${first.id}`));
    const drill = page.getByTestId('ageing-drill');
    await drill.getByRole('heading', { name: `${first.name} · All buckets` }).waitFor();
    const listed = await admin.get(`/api/analytics/ageing/invoices?asOf=${asOf}&by=customer&partyId=${first.id}&limit=1000`);
    expect(listed.headers.get('X-Total-Count')).toBe(String(first.invoices));
    const invoices = listed.json as unknown as Array<{ id: string; invoiceNumber: string; openAmount: number }>;
    expect(Math.round(invoices.reduce((sum, item) => sum + item.openAmount * 100, 0))).toBe(Math.round(first.total * 100));
    expect(await drill.getByTestId('ageing-invoice').count()).toBe(Math.min(invoices.length, 25));
    await drill.getByRole('link', { name: invoices[0].invoiceNumber, exact: true }).click();
    await page.waitForURL(new RegExp(`/invoices/${invoices[0].id}`));
    await page.goBack();
    await page.getByTestId('ageing-drill').waitFor();
    await page.getByTestId('ageing-drill').getByRole('link', { name: 'Close' }).click();
    await expect.poll(() => page.getByTestId('ageing-drill').count()).toBe(0);

    // The CSV of the shown report: every row and the totals, to the cent.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('ageing-export-csv').click()]);
    expect(download.suggestedFilename()).toBe(`finflow-ageing-customer-${asOf}.csv`);
    const bytes = fs.readFileSync((await download.path())!);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = bytes.subarray(3).toString('utf8').trimEnd().split('\r\n');
    expect(lines).toHaveLength(byCustomer.count + 2);
    const money = (value: number) => value.toFixed(2).replace('.', ',');
    const { totals } = byCustomer;
    expect(lines.at(-1)).toBe(
      [asOf, 'customer', '', 'total', '', totals.notDue, totals.days1to30, totals.days31to60, totals.days61to90, totals.over90, totals.total]
        .map((cell) => (typeof cell === 'number' ? money(cell) : cell))
        .join(';') + `;${totals.invoices}`,
    );
    expect(lines[1].split(';')[2]).toBe(first.id);
    expect(errors).toEqual([]);
    await close();
  });

  it('refuses a day after today on the page, with no figures', async () => {
    const { page, errors, close } = await newStrictPage(browser, { sessionCookie: admin.cookie });
    await page.goto(`${baseUrl}/analytics?tab=ageing&asOf=${zagrebDay(2)}`);
    await page.getByTestId('ageing-error').getByText('The as-of date cannot be after today').waitFor();
    expect(await page.getByTestId('ageing-table').count()).toBe(0);
    expect(errors).toEqual([]);
    await close();
  });

  it('works without JavaScript: the day form and the drill-down links', async () => {
    const { page, close } = await newStrictPage(browser, { sessionCookie: admin.cookie, javaScriptEnabled: false });
    await page.goto(`${baseUrl}/analytics?tab=ageing&by=client`);
    const asOf = zagrebDay(-7);
    await page.getByTestId('ageing-as-of').fill(asOf);
    await page.getByRole('button', { name: 'Show' }).click();
    await page.waitForURL(new RegExp(`asOf=${asOf}`));
    const data = await report(`asOf=${asOf}&by=client`);
    await expectShows(page, data);
    const first = data.rows[0];
    const bucket = (['over90', 'days61to90', 'days31to60', 'days1to30', 'notDue'] as const).find((key) => first[key] > 0)!;
    await page.getByTestId(`ageing-${first.id}-${bucket}`).getByRole('link').click();
    await page.waitForURL(new RegExp(`bucket=${bucket}`));
    const listed = await admin.get(`/api/analytics/ageing/invoices?asOf=${asOf}&by=client&partyId=${first.id}&bucket=${bucket}`);
    expect(await page.getByTestId('ageing-invoice').count()).toBe(Math.min(Number(listed.headers.get('X-Total-Count')), 25));
    await close();
  });

  it('is accessible: the report and its drill-down, with and without JavaScript, light and dark', { timeout: 120_000 }, async () => {
    const first = (await report('by=client')).rows[0];
    const url = `${baseUrl}/analytics?tab=ageing&by=client&party=${first.id}`;
    const { page, close } = await newStrictPage(browser, { sessionCookie: admin.cookie });
    await expectAccessibleInEachAppearance(page, baseUrl, 'ageing drill-down', async () => {
      await page.goto(url);
      await page.getByTestId('ageing-drill').waitFor();
      await settle(page);
    });
    await expectAccessibleInEachAppearance(page, baseUrl, 'ageing without JavaScript', async () => {
      await gotoWithoutJavaScript(page, url);
      await page.getByTestId('ageing-drill').waitFor();
    });
    await close();
  });
});
