import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { sandboxOibs } from '../../app/integrations/sandbox-rules.ts';
import type { ApiClient } from '../support/api-client.ts';
import { newStrictPage } from '../support/browser.ts';
import { browserAndAdmin } from '../support/sessions.ts';

const baseUrl = inject('baseUrl');
let browser: Browser;
let admin: ApiClient;

beforeAll(async () => ({ browser, admin } = await browserAndAdmin()));
afterAll(() => browser?.close());

function toast(page: Page, text: string | RegExp) {
  return page.locator('.toast').getByText(text);
}

describe('integrations', () => {
  it('lists the integrations with counters and tabs, runs a test with a toast, and opens /integrations/fina', async () => {
    const list = await admin.get('/api/integrations');
    expect(list.status).toBe(200);
    const types = (list.json as unknown as { type: string }[]).map((integration) => integration.type);
    expect(types).toEqual(expect.arrayContaining(['hanfa', 'fina', 'einvoicing', 'sendgrid', 'docusign']));

    const { page, errors, close } = await newStrictPage(browser, { sessionCookie: admin.cookie });
    await page.goto(`${baseUrl}/integrations`);
    await page.getByRole('heading', { level: 2, name: 'Integrations' }).waitFor();
    await page.waitForLoadState('networkidle');
    for (const key of ['active', 'error', 'inactive']) await page.getByTestId(`counter-${key}`).waitFor();

    await page.getByTestId('tab-croatian').click();
    await page.waitForURL(`${baseUrl}/integrations?tab=croatian`);
    await page.getByTestId('integration-card-fina').waitFor();
    // The tab's data may still be on its way when the URL has changed.
    await expect.poll(() => page.getByTestId('integration-card-sendgrid').count()).toBe(0);

    await page.getByTestId('test-fina').click();
    await toast(page, 'Test uspješan').waitFor();
    await toast(page, /FINA API/)
      .first()
      .waitFor();
    await expect.poll(async () => (await admin.get('/api/integrations/fina')).json.status).toBe('active');

    // The API answers the same test as JSON.
    const tested = await admin.post('/api/integrations/hanfa/test', {});
    expect(tested.status).toBe(200);
    expect(tested.json).toMatchObject({ success: true, message: expect.any(String), durationMs: expect.any(Number) });

    await page.goto(`${baseUrl}/integrations/fina`);
    await page.getByRole('heading', { level: 2, name: /FINA/ }).waitFor();
    await page.getByTestId('integration-card-fina').waitFor();
    await page.getByTestId('tab-logs').click();
    await page.getByTestId('integration-logs').waitFor();
    expect(await page.getByTestId('integration-logs').getByText('test').count()).toBeGreaterThan(0);
    expect(errors).toEqual([]);
    await close();
  });

  it("'FINA provjera' on a customer card checks the account, blocks the customer and opens a task", async () => {
    const [oib] = sandboxOibs(true, 1, Date.now() % 1_000_000_000);
    const created = await admin.post('/api/customers', { companyName: `E2E blokirani kupac ${oib} d.o.o.`, oib });
    expect(created.status).toBe(201);
    const id = String(created.json.id);

    const { page, errors, close } = await newStrictPage(browser, { sessionCookie: admin.cookie });
    await page.goto(`${baseUrl}/customers?q=${oib}`);
    const card = page.getByTestId('customer-card').filter({ hasText: oib });
    await card.waitFor();
    await page.waitForLoadState('networkidle');
    await card.getByRole('button', { name: 'FINA provjera' }).click();
    await toast(page, /account blocked/).waitFor();
    await card.getByText('Blokiran', { exact: true }).waitFor();

    const customer = await admin.get(`/api/customers/${id}`);
    expect(customer.json).toMatchObject({ accountBlocked: true, lastFinaCheck: expect.any(String) });
    const tasks = await admin.get(`/api/tasks?q=${encodeURIComponent(oib)}`);
    expect(tasks.status).toBe(200);
    expect(tasks.headers.get('x-total-count')).toBe('1');
    expect(tasks.json).toEqual([expect.objectContaining({ type: 'customer_contact', priority: 'urgent' })]);

    // The JSON API: a second check changes nothing.
    const again = await admin.post(`/api/customers/${id}/fina-check`, {});
    expect(again.status).toBe(200);
    expect(again.json).toMatchObject({ accountBlocked: true, change: 'unchanged' });

    await page.goto(`${baseUrl}/integrations/fina`);
    await page.getByTestId('fina-checks').getByText(oib).first().waitFor();
    expect(errors).toEqual([]);
    await close();
  });
});
