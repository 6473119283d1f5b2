import fs from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { ApiClient } from '../support/api-client.ts';
import { newStrictPage } from '../support/browser.ts';
import { browserAndAdmin, staffSession } from '../support/sessions.ts';

/**
 * A demo client's account (docs/screens.md, docs/money.md#the-clients-account):
 * the balance and ledger on the client page, a statement downloaded from its
 * form, and adjustments requested there — one posted at once, one above the
 * book's four-eyes amount approved by a second manager.
 */
const baseUrl = inject('baseUrl');
let browser: Browser;
let admin: ApiClient;

beforeAll(async () => ({ browser, admin } = await browserAndAdmin()));
afterAll(() => browser?.close());

const managerSession = async () =>
  (await staffSession(admin, 'manager', { label: 'ledger-manager', firstName: 'Druga', lastName: 'Voditeljica', ownPassword: 'Own-password-2' })).client;

/** A demo client whose account has entries (from its statement over the whole book). */
async function clientWithEntries(skip: number): Promise<{ id: string; companyName: string }> {
  const listed = await admin.get('/api/clients?status=active&limit=40');
  const clients = listed.json as unknown as Array<{ id: string; companyName: string }>;
  let found = 0;
  for (const client of clients) {
    const csv = await admin.get(`/api/clients/${client.id}/statement?from=2000-01-01&to=2100-12-31&format=csv`);
    if (csv.status === 200 && csv.text.split('\r\n').length > 5 && found++ === skip) return client;
  }
  throw new Error('no demo client with ledger entries');
}

/** EUR cents of '1.234,56 €' (the page) or '1234,56' (the CSV). */
const cents = (text: string) =>
  Math.round(
    Number(
      text
        .replace(/\u2212/g, '-')
        .replace(/[^\d,-]/g, '')
        .replace(',', '.'),
    ) * 100,
  );

async function download(page: Page, testId: string) {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testId).click()]);
  return { name: file.suggestedFilename(), bytes: fs.readFileSync((await file.path())!) };
}

describe("the client's account", () => {
  it('shows the balance and ledger, downloads a statement that closes on it, and posts an adjustment', async () => {
    const client = await clientWithEntries(0);
    const { page, errors, close } = await newStrictPage(browser, { sessionCookie: admin.cookie });
    await page.goto(`${baseUrl}/clients/${client.id}`);
    await page.getByRole('heading', { name: 'Client account' }).waitFor();
    await page.waitForLoadState('networkidle');
    const balance = cents((await page.getByTestId('account-balance').textContent())!);
    expect(await page.getByTestId('ledger-row').count()).toBeGreaterThan(0);
    // The newest entries are shown (the last page): the last running balance is the account's balance.
    expect(cents((await page.getByTestId('ledger-balance').last().textContent())!)).toBe(balance);

    await page.getByLabel('From').fill('2000-01-01');
    await page.getByLabel('Format').selectOption('csv');
    const csv = await download(page, 'statement-download');
    expect(csv.name).toMatch(/^izvadak-\d{11}-2000-01-01-\d{4}-\d{2}-\d{2}\.csv$/);
    expect([...csv.bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const records = csv.bytes.toString('utf8').slice(1).trimEnd().split('\r\n');
    expect(records[0]).toBe('Datum;Vrsta;Referenca;Duguje;Potražuje;Saldo');
    expect(cents(records.at(-1)!.split(';').at(-1)!)).toBe(balance);
    await page.getByLabel('Format').selectOption('pdf');
    const pdf = await download(page, 'statement-download');
    expect(pdf.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');

    // Under the four-eyes amount: posted at once, a new last entry.
    await page.getByLabel('Amount (EUR, signed) *').fill('-12.34');
    await page.getByLabel('Reason *').fill('Povrat troška opomene');
    await page.getByTestId('adjustment-submit').click();
    await page.locator('.toast').getByText('Adjustment posted to the client account').waitFor();
    await page.waitForLoadState('networkidle');
    expect(cents((await page.getByTestId('account-balance').textContent())!)).toBe(balance - 1234);
    const last = page.getByTestId('ledger-row').last();
    await last.getByText('Adjustment (Ispravak)').waitFor();
    await last.getByText('Povrat troška opomene').waitFor();
    expect(errors).toEqual([]);
    await close();
  });

  it('keeps an adjustment above the four-eyes amount pending until a second manager approves it', async () => {
    const client = await clientWithEntries(1);
    const before = await admin.get(`/api/clients/${client.id}/ledger-adjustments?status=pending`);
    const { page, errors, close } = await newStrictPage(browser, { sessionCookie: admin.cookie });
    await page.goto(`${baseUrl}/clients/${client.id}`);
    await page.getByRole('heading', { name: 'Client account' }).waitFor();
    await page.waitForLoadState('networkidle');
    const balance = cents((await page.getByTestId('account-balance').textContent())!);
    await page.getByLabel('Amount (EUR, signed) *').fill('5000');
    await page.getByLabel('Reason *').fill('Trošak prisilne naplate');
    await page.getByTestId('adjustment-submit').click();
    await page.locator('.toast').getByText('Adjustment requested: it waits for another manager').waitFor();
    const pending = page.getByTestId('pending-adjustment').filter({ hasText: 'Trošak prisilne naplate' });
    await pending.getByText('Your request: another manager decides it.').waitFor();
    expect(await pending.getByTestId('adjustment-approve').count()).toBe(0);
    expect(cents((await page.getByTestId('account-balance').textContent())!)).toBe(balance);

    const listed = await admin.get(`/api/clients/${client.id}/ledger-adjustments?status=pending`);
    expect(Number(listed.headers.get('X-Total-Count'))).toBe(Number(before.headers.get('X-Total-Count')) + 1);
    const [created] = listed.json as unknown as Array<{ id: string; reason: string }>;
    expect(created.reason).toBe('Trošak prisilne naplate');
    expect((await admin.post(`/api/ledger-adjustments/${created.id}/approve`)).status).toBe(403);
    const manager = await managerSession();
    expect((await manager.post(`/api/ledger-adjustments/${created.id}/approve`)).json).toMatchObject({ status: 'approved' });

    await page.reload();
    await page.getByRole('heading', { name: 'Client account' }).waitFor();
    expect(await page.getByTestId('pending-adjustment').filter({ hasText: 'Trošak prisilne naplate' }).count()).toBe(0);
    expect(cents((await page.getByTestId('account-balance').textContent())!)).toBe(balance + 500000);
    expect(errors).toEqual([]);
    await close();
  });

  it('works without JavaScript: the statement downloads and an adjustment posts', async () => {
    const client = await clientWithEntries(2);
    const { page, close } = await newStrictPage(browser, { sessionCookie: admin.cookie, javaScriptEnabled: false });
    await page.goto(`${baseUrl}/clients/${client.id}`);
    await page.getByRole('heading', { name: 'Client account' }).waitFor();
    const csv = await download(page, 'statement-download');
    expect(csv.name).toMatch(/\.pdf$/);
    const balance = cents((await page.getByTestId('account-balance').textContent())!);
    await page.getByLabel('Amount (EUR, signed) *').fill('7.50');
    await page.getByLabel('Reason *').fill('Trošak izvatka');
    await page.getByTestId('adjustment-submit').click();
    await page.waitForURL(`${baseUrl}/clients/${client.id}#account`);
    expect(cents((await page.getByTestId('account-balance').textContent())!)).toBe(balance + 750);
    await close();
  });
});
