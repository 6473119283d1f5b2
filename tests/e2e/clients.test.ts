import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { oibCheckDigit } from '../../app/utils/validation.ts';
import type { ApiClient } from '../support/api-client.ts';
import { newStrictPage } from '../support/browser.ts';
import { browserAndAdmin } from '../support/sessions.ts';

const baseUrl = inject('baseUrl');
let browser: Browser;
let admin: ApiClient;

beforeAll(async () => ({ browser, admin } = await browserAndAdmin()));
afterAll(() => browser?.close());

/** A valid OIB no demo company has: a time-based prefix with its check digit. */
function freshOib(): string {
  const first10 = `8${String(Date.now()).slice(-9)}`;
  return `${first10}${oibCheckDigit(first10)}`;
}

function toast(page: Page, text: string) {
  return page.locator('.toast').getByText(text);
}

async function total(path: string): Promise<number> {
  const response = await admin.get(`${path}?limit=1`);
  expect(response.status).toBe(200);
  return Number(response.headers.get('x-total-count'));
}

describe('client management', () => {
  it('creates a client through the dialog, lists it first and shows its detail page', async () => {
    const { page, errors, close } = await newStrictPage(browser, { sessionCookie: admin.cookie });
    await page.goto(`${baseUrl}/clients`);
    await page.getByRole('heading', { name: 'Upravljanje klijentima' }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(await page.getByTestId('client-card').count()).toBe(24);

    const name = `Dijalog Test ${Date.now()} d.o.o.`;
    const oib = freshOib();
    await page.getByRole('link', { name: 'Dodaj klijenta' }).click();
    const dialog = page.getByRole('dialog', { name: 'Dodaj novog klijenta' });
    await dialog.waitFor();
    await dialog.getByLabel('Company name *').fill(name);
    await dialog.getByLabel('OIB *').fill(oib);
    await dialog.getByLabel('City').fill('Varaždin');
    await dialog.getByLabel('Email').fill('info@dijalog.hr');
    await expect(dialog.getByLabel('Country').inputValue()).resolves.toBe('Croatia');
    await dialog.getByRole('button', { name: 'Spremi' }).click();
    await toast(page, 'Client created successfully').waitFor();
    await dialog.waitFor({ state: 'detached' });

    const first = page.getByTestId('client-card').first();
    await first.getByRole('link', { name }).waitFor();
    // A new client waits for its KYC review before it is active.
    await expect(first.getByTestId('client-status').textContent()).resolves.toBe('Čeka');
    await first.getByRole('link', { name }).click();
    await page.getByTestId('detail-title').getByText(name).waitFor();
    await expect(page.getByTestId('kyc-panel').getByTestId('kyc-onboarding-status').textContent()).resolves.toBe('Onboarding: Not started');
    await page.getByText(oib).first().waitFor();
    await page.getByRole('heading', { name: 'Factoring agreement' }).waitFor();
    await page.getByTestId('activity-list').getByText('Client created').waitFor();
    expect(errors).toEqual([]);
    await close();
  });

  it('shows the field messages for invalid input and creates nothing; a duplicate OIB is refused by the server', async () => {
    const { page, errors, close } = await newStrictPage(browser, { sessionCookie: admin.cookie });
    const before = await total('/api/clients');
    await page.goto(`${baseUrl}/clients`);
    await page.waitForLoadState('networkidle');
    await page.getByRole('link', { name: 'Dodaj klijenta' }).click();
    const dialog = page.getByRole('dialog', { name: 'Dodaj novog klijenta' });
    await dialog.getByLabel('OIB *').fill('123');
    await dialog.getByLabel('Email').fill('not-an-email');
    await dialog.getByRole('button', { name: 'Spremi' }).click();
    await dialog.getByText('Company name is required').waitFor();
    await dialog.getByText('OIB must be 11 digits').waitFor();
    await dialog.getByText('Invalid email format').waitFor();
    expect(await total('/api/clients')).toBe(before);

    // Valid to the browser, refused by the server: the OIB of an existing client.
    const [existing] = (await admin.get('/api/clients?limit=1')).json as unknown as Array<{ oib: string }>;
    await dialog.getByLabel('Company name *').fill('Duplikat d.o.o.');
    await dialog.getByLabel('OIB *').fill(existing.oib);
    await dialog.getByLabel('Email').fill('');
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/clients'),
      dialog.getByRole('button', { name: 'Spremi' }).click(),
    ]);
    expect(response.status()).toBe(409);
    await toast(page, 'Failed to create client').waitFor();
    await dialog.getByText('A client with this OIB already exists').waitFor();
    expect(await total('/api/clients')).toBe(before);
    expect(errors.filter((error) => !/status of 409/.test(error))).toEqual([]);
    await close();
  });

  it('narrows the list by ?q= in the URL (name and OIB prefix) and pages by ?page=', async () => {
    const { page, close } = await newStrictPage(browser, { sessionCookie: admin.cookie });
    const created = await admin.post('/api/clients', { companyName: `Pretraga Jedinstvena ${Date.now()} d.o.o.`, oib: freshOib() });
    expect(created.status).toBe(201);
    await page.goto(`${baseUrl}/clients?q=${encodeURIComponent('Pretraga Jedinstvena')}`);
    await expect(page.getByTestId('client-card').count()).resolves.toBe(1);
    await page.getByTestId('client-card').getByText(String(created.json.companyName)).waitFor();
    await page.goto(`${baseUrl}/clients?q=${String(created.json.oib).slice(0, 9)}`);
    await expect(page.getByTestId('client-card').count()).resolves.toBe(1);

    const all = await total('/api/clients');
    await page.goto(`${baseUrl}/clients?page=2`);
    await expect(page.getByTestId('client-card').count()).resolves.toBe(Math.min(24, all - 24));
    await page.getByRole('navigation', { name: 'Pages' }).getByText('Page 2 of').waitFor();
    await close();
  });
});

describe('customer management', () => {
  it('creates a customer with JavaScript disabled', async () => {
    const { page, close } = await newStrictPage(browser, { sessionCookie: admin.cookie, javaScriptEnabled: false });
    const before = await total('/api/customers');
    await page.goto(`${baseUrl}/customers`);
    await page.getByRole('heading', { name: 'Upravljanje kupcima' }).waitFor();
    await expect(page.getByTestId('customer-card').first().getByRole('button', { name: 'FINA provjera' }).count()).resolves.toBe(1);
    await page.getByRole('link', { name: 'Dodaj kupca' }).click();
    const panel = page.getByTestId('create-panel');
    await panel.getByRole('heading', { name: 'Dodaj novog kupca' }).waitFor();
    expect(await panel.getByLabel('Contact person').count()).toBe(0);

    // A server-side refusal comes back into the form.
    const name = `Bez Skripte ${Date.now()} d.d.`;
    await panel.getByLabel('Company name *').fill(name);
    await panel.getByLabel('OIB *').fill('12345678900');
    await panel.getByRole('button', { name: 'Spremi' }).click();
    await page.getByTestId('create-panel').getByText('OIB check digit is invalid').waitFor();
    expect(await total('/api/customers')).toBe(before);

    await page.getByTestId('create-panel').getByLabel('OIB *').fill(freshOib());
    await page.getByTestId('create-panel').getByLabel('Postal code').fill('51000');
    await page.getByTestId('create-panel').getByRole('button', { name: 'Spremi' }).click();
    await page.waitForURL(`${baseUrl}/customers`);
    const card = page.getByTestId('customer-card').first();
    await card.getByRole('link', { name }).waitFor();
    await expect(card.getByTestId('customer-status').textContent()).resolves.toBe('Aktivan');
    expect(await total('/api/customers')).toBe(before + 1);
    await close();
  });
});
