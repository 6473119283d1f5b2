import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, newStrictPage } from '../support/browser.ts';

const baseUrl = inject('baseUrl');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

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
    await expect(page.title()).resolves.toBe('FinFlow');
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

  it('refuses a cross-site write before it reaches a route', async () => {
    const response = await fetch(`${baseUrl}/`, { method: 'POST', headers: { Origin: 'https://evil.example' } });
    expect(response.status).toBe(403);
  });
});
