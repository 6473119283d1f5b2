import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { signInAsAdmin } from '../support/api-client.ts';
import { launchBrowser, newStrictPage } from '../support/browser.ts';

const baseUrl = inject('baseUrl');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

describe('a started FinFlow', () => {
  it('answers /healthz with status ok', async () => {
    const response = await fetch(`${baseUrl}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  it('renders / in Chromium, hydrated without errors', async () => {
    const { page, errors, close } = await newStrictPage(browser);
    const response = await page.goto(baseUrl);
    expect(response?.status()).toBe(200);
    await expect(page.title()).resolves.toBe('Sign in · FinFlow');
    await page.getByTestId('feature-bullets').waitFor();
    expect(await page.getByTestId('feature-bullets').locator('li').count()).toBe(4);
    await page.waitForLoadState('networkidle');
    expect(errors).toEqual([]);
    await close();
  });

  it('shows the not-found page for an unknown path', async () => {
    const { page, close } = await newStrictPage(browser);
    const response = await page.goto(`${baseUrl}/no-such-page`);
    expect(response?.status()).toBe(404);
    await page.getByRole('heading', { name: '404 Page Not Found' }).waitFor();
    await close();
  });

  it('a page whose loader refuses keeps the frame around its message; titles follow the language', async () => {
    const admin = await signInAsAdmin();
    const { page, close } = await newStrictPage(browser, { sessionCookie: admin.cookie });
    try {
      const response = await page.goto(`${baseUrl}/invoices/00000000-0000-4000-8000-000000000000`);
      expect(response?.status()).toBe(404);
      await page.getByTestId('page-error').getByRole('heading', { name: '404 Page Not Found' }).waitFor();
      // The sidebar and the user menu are still there.
      await page.getByRole('complementary', { name: 'Sidebar' }).waitFor();
      await page.getByRole('button', { name: 'User menu' }).waitFor();
      await expect(page.title()).resolves.toBe('Invoice Processing · FinFlow');
      await page.context().addCookies([{ name: 'finflow-language', value: 'hr', url: baseUrl }]);
      await page.goto(`${baseUrl}/clients`);
      await expect(page.title()).resolves.toBe('Upravljanje klijentima · FinFlow');
    } finally {
      await close();
    }
  });

  it('refuses a cross-site write before it reaches a route', async () => {
    const response = await fetch(`${baseUrl}/`, { method: 'POST', headers: { Origin: 'https://evil.example' } });
    expect(response.status).toBe(403);
  });
});
