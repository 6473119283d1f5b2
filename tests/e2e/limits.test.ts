import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { addDays, zagrebToday } from '../../app/limits/dates.ts';
import { formatEur } from '../../app/utils/format.ts';
import type { ApiClient } from '../support/api-client.ts';
import { newStrictPage } from '../support/browser.ts';
import { browserAndAdmin, staffSession } from '../support/sessions.ts';

const baseUrl = inject('baseUrl');
let browser: Browser;
let admin: ApiClient;

beforeAll(async () => ({ browser, admin } = await browserAndAdmin()));
afterAll(() => browser?.close());

/** A second manager (four eyes). */
const managerSession = async () =>
  (await staffSession(admin, 'manager', { label: 'limits-manager', firstName: 'Druga', lastName: 'Voditeljica', ownPassword: 'Own-password-2' })).client;

function toast(page: Page, text: string) {
  return page.locator('.toast').getByText(text);
}

/** A seeded active client (with its name, for searching the page). */
async function seededClient(offset: number): Promise<{ id: string; companyName: string }> {
  const response = await admin.get(`/api/clients?status=active&limit=1&offset=${offset}`);
  expect(response.status).toBe(200);
  const [client] = response.json as unknown as Array<{ id: string; companyName: string }>;
  return client;
}

describe('credit limits and approvals', () => {
  it('the admin requests a limit through the dialog, cannot approve it; a second manager approves and the grid shows it', async () => {
    const client = await seededClient(3);
    const amount = 400_000 + Math.floor(Math.random() * 900) * 100;
    const { page, errors, close } = await newStrictPage(browser, { sessionCookie: admin.cookie });
    await page.goto(`${baseUrl}/limits`);
    await page.getByRole('heading', { name: 'Credit limits and approvals' }).waitFor();
    await page.waitForLoadState('networkidle');
    await expect(page.getByTestId('tab-pending').getAttribute('data-active')).resolves.not.toBeNull();

    await page.getByRole('link', { name: 'New limit request' }).click();
    const dialog = page.getByRole('dialog', { name: 'New credit limit request' });
    await dialog.waitFor();
    await expect(dialog.getByLabel('Valid until').inputValue()).resolves.toBe(addDays(zagrebToday(), 365));
    await dialog.getByRole('button', { name: 'Submit request' }).click();
    await dialog.getByText('Client is required').waitFor();
    await dialog.getByText('Credit limit is required').waitFor();
    await dialog.getByText('Reason is required').waitFor();

    await dialog.getByLabel('Client *').selectOption(client.id);
    await dialog.getByLabel('Requested limit (EUR) *').fill(String(amount));
    await dialog.getByLabel('Reason *').fill('Novi ugovor s velikim kupcem.');
    await dialog.getByRole('button', { name: 'Submit request' }).click();
    await toast(page, 'Credit limit request created successfully').waitFor();
    await dialog.waitFor({ state: 'detached' });

    const listed = await admin.get(`/api/credit-limits?status=pending&q=${encodeURIComponent(client.companyName)}`);
    const [request] = listed.json as unknown as Array<{ id: string; requestedLimit: number; previousLimit: number | null; status: string }>;
    expect(request).toMatchObject({ requestedLimit: amount, status: 'pending' });

    // Four eyes: no approve or reject on one's own request, only the note.
    const own = page.locator(`[data-id="${request.id}"]`);
    await own.waitFor();
    await own.getByText(formatEur(amount, { decimals: 0 })).waitFor();
    expect(await own.getByRole('button', { name: 'Approve' }).count()).toBe(0);
    expect(await own.getByRole('button', { name: 'Reject' }).count()).toBe(0);
    await own.getByTestId('own-request').waitFor();
    expect((await admin.put(`/api/credit-limits/${request.id}/approve`, { approvedLimit: amount })).status).toBe(403);
    expect(errors).toEqual([]);
    await close();

    const manager = await managerSession();
    const second = await newStrictPage(browser, { sessionCookie: manager.cookie });
    await second.page.goto(`${baseUrl}/limits?q=${encodeURIComponent(client.companyName)}`);
    await second.page.waitForLoadState('networkidle');
    const card = second.page.locator(`[data-id="${request.id}"]`);
    await card.getByRole('button', { name: 'Approve' }).click();
    await toast(second.page, 'Credit limit approved successfully').waitFor();
    const gridCard = second.page.locator(`[data-testid="client-limit"][data-client-id="${client.id}"]`);
    await expect(gridCard.getByTestId('credit-limit').textContent()).resolves.toBe(formatEur(amount, { decimals: 0 }));
    await second.page.getByTestId('tab-approved').click();
    await second.page.locator(`[data-id="${request.id}"][data-status="approved"]`).waitFor();

    const detail = await admin.get(`/api/clients/${client.id}`);
    expect(detail.json.creditLimit).toBe(amount);
    expect(second.errors).toEqual([]);
    await second.close();
  });

  it('a manager rejects without JavaScript; the fixed reason is stored', async () => {
    const client = await seededClient(4);
    const created = await admin.post('/api/credit-limits', { clientId: client.id, creditLimit: 123456.78, reason: 'Bez skripte.' });
    expect(created.status).toBe(201);
    const id = String(created.json.id);
    const manager = await managerSession();
    const { page, close } = await newStrictPage(browser, { sessionCookie: manager.cookie, javaScriptEnabled: false });
    await page.goto(`${baseUrl}/limits?q=${encodeURIComponent(client.companyName)}`);
    await page.locator(`[data-id="${id}"]`).getByRole('button', { name: 'Reject' }).click();
    // A plain form post and redirect (PRG): the decision is stored when the page has come back.
    const rejected = async () => {
      const list = await admin.get(`/api/credit-limits?status=rejected&q=${encodeURIComponent(client.companyName)}`);
      return (list.json as unknown as Array<{ id: string; rejectionReason: string }>).find((request) => request.id === id)?.rejectionReason;
    };
    await expect.poll(rejected, { timeout: 10_000 }).toBe('Odbijeno od strane administratora');
    await page.waitForLoadState('load');
    await page.goto(`${baseUrl}/limits?tab=all&q=${encodeURIComponent(client.companyName)}`);
    await page.locator(`[data-id="${id}"][data-status="rejected"]`).getByText('Odbijeno od strane administratora').waitFor();
    await close();
  });
});
