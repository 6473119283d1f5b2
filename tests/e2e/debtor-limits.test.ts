import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { formatEur } from '../../app/utils/format.ts';
import { oibCheckDigit } from '../../app/utils/validation.ts';
import type { ApiClient } from '../support/api-client.ts';
import { newStrictPage } from '../support/browser.ts';
import { browserAndAdmin, staffSession } from '../support/sessions.ts';

/** Debtor limits (docs/lifecycle.md#credit-limits): asked for without JavaScript from the customer page, approved by another manager on /limits. */

const baseUrl = inject('baseUrl');
let browser: Browser;
let admin: ApiClient;

beforeAll(async () => ({ browser, admin } = await browserAndAdmin()));
afterAll(() => browser?.close());

/** A staff member created by the admin, signed in with a password only (OTP off), who has set their own password. */
const staffMember = async (role: 'user' | 'manager') =>
  (await staffSession(admin, role, { label: `debtor-limits-${role}`, firstName: 'Dora', lastName: role === 'user' ? 'Referentica' : 'Voditeljica', ownPassword: 'Own-password-2' }))
    .client;

function freshOib(): string {
  const first10 = String(Math.floor(1e9 + Math.random() * 9e9));
  return `${first10}${oibCheckDigit(first10)}`;
}

describe("a debtor's limit", () => {
  it('a user asks for it without JavaScript from the customer page, a second manager approves it on /limits, the customer page shows it', async () => {
    const name = `Dužnik Limit ${Date.now()} d.d.`;
    const customer = await admin.post('/api/customers', { companyName: name, oib: freshOib() });
    expect(customer.status).toBe(201);
    const customerId = String(customer.json.id);
    expect(customer.json).toMatchObject({ creditLimit: null, usedCredit: 0, availableCredit: null });
    const amount = 150_000 + Math.floor(Math.random() * 900) * 100;

    // The request, as a user (no manager role), without JavaScript.
    const user = await staffMember('user');
    {
      const { page, errors, close } = await newStrictPage(browser, { sessionCookie: user.cookie, javaScriptEnabled: false });
      await page.goto(`${baseUrl}/customers/${customerId}`);
      await expect(page.getByTestId('debtor-credit-limit').textContent()).resolves.toBe('No limit approved');
      await page.getByTestId('request-debtor-limit').click();
      const panel = page.getByTestId('create-panel');
      await panel.waitFor();
      await expect(panel.getByLabel('Debtor *').inputValue()).resolves.toBe(customerId);
      // The search step (no JavaScript): the chosen debtor stays chosen, the list shows what matches.
      await panel.getByLabel('Find a debtor (name or OIB)').fill(name);
      await panel.getByRole('button', { name: 'Find debtors' }).click();
      await panel.getByRole('status').getByText('1 debtor found.').waitFor();
      await expect(panel.getByLabel('Debtor *').inputValue()).resolves.toBe(customerId);
      await panel.getByLabel('Requested limit (EUR) *').fill(String(amount));
      await panel.getByLabel('Reason *').fill('Dužnik više klijenata, uredna povijest plaćanja.');
      await panel.getByRole('button', { name: 'Submit request' }).click();
      await page.getByTestId('tab-pending').waitFor();
      expect(errors).toEqual([]);
      await close();
    }
    const listed = await admin.get(`/api/credit-limits?partyType=customer&status=pending&q=${encodeURIComponent(name)}`);
    const [request] = listed.json as unknown as Array<{ id: string; partyType: string; customerId: string; requestedLimit: number; partyName: string }>;
    expect(request).toMatchObject({ partyType: 'customer', customerId, requestedLimit: amount, partyName: name });
    // Four eyes: the user may not decide; the request waits for a manager.
    expect((await user.put(`/api/credit-limits/${request.id}/approve`, {})).status).toBe(403);

    // A manager approves it on /limits, filtered to debtors.
    const manager = await staffMember('manager');
    {
      const { page, errors, close } = await newStrictPage(browser, { sessionCookie: manager.cookie });
      await page.goto(`${baseUrl}/limits?q=${encodeURIComponent(name)}`);
      await page.waitForLoadState('networkidle');
      await page.getByTestId('kind-customer').click();
      await page.getByTestId('requests-heading').getByText('Limit requests (debtors)').waitFor();
      const card = page.locator(`[data-id="${request.id}"]`);
      await expect(card.getByTestId('party-type').textContent()).resolves.toBe('Debtor');
      await card.getByRole('button', { name: 'Approve' }).click();
      await page.locator('.toast').getByText('Credit limit approved successfully').waitFor();
      const gridCard = page.locator(`[data-testid="customer-limit"][data-client-id="${customerId}"]`);
      await expect(gridCard.getByTestId('credit-limit').textContent()).resolves.toBe(formatEur(amount, { decimals: 0 }));
      expect(errors).toEqual([]);
      await close();
    }

    expect((await admin.get(`/api/customers/${customerId}`)).json).toMatchObject({ creditLimit: amount, usedCredit: 0, availableCredit: amount });
    {
      const { page, errors, close } = await newStrictPage(browser, { sessionCookie: user.cookie, javaScriptEnabled: false });
      await page.goto(`${baseUrl}/customers/${customerId}`);
      await expect(page.getByTestId('debtor-credit-limit').textContent()).resolves.toBe(formatEur(amount, { decimals: 0 }));
      await expect(page.getByTestId('debtor-available-credit').textContent()).resolves.toBe(formatEur(amount, { decimals: 0 }));
      await page.locator(`[data-testid="debtor-limit-request"][data-id="${request.id}"][data-status="approved"]`).waitFor();
      expect(errors).toEqual([]);
      await close();
    }
  });
});
