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

describe('email automation', () => {
  it('refuses an unknown variable with its line, then creates a template and lists it', async () => {
    const { page, errors, close } = await newStrictPage(browser, { sessionCookie: admin.cookie });
    await page.goto(`${baseUrl}/email-automation`);
    await page.getByRole('heading', { level: 2, name: 'Email automatizacija' }).waitFor();
    await page.waitForLoadState('networkidle');
    await expect(page.getByTestId('summary-totalSent').textContent()).resolves.toContain('Total sent');

    const name = `E2E predložak ${Date.now()}`;
    await page.getByRole('link', { name: 'Novi predložak' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Stvori novi email predložak' });
    await dialog.waitFor();
    await dialog.getByLabel('Naziv predloška *').fill(name);
    await dialog.getByLabel('Naslov emaila *').fill('Obavijest za {{company_name}}');
    await dialog.getByLabel('Sadržaj emaila *').fill('Poštovani {{client_name}},\n{{iban}}');
    await dialog.getByRole('button', { name: 'Stvori predložak' }).click();
    await dialog.getByText(/Line 2: unknown variable \{\{iban\}\}/).waitFor();

    await dialog.getByLabel('Sadržaj emaila *').fill('Poštovani {{client_name}},\nvaša faktura {{invoice_number}} iznosi {{amount}}.');
    await dialog.getByRole('button', { name: 'Stvori predložak' }).click();
    await page.locator('.toast').getByText('Email template created successfully').waitFor();
    await dialog.waitFor({ state: 'hidden' });

    const card = page.getByTestId('template-card').filter({ hasText: name });
    await card.waitFor();
    await expect(card.textContent()).resolves.toContain('Korišten 0 puta');
    await expect(card.textContent()).resolves.toContain('Ručno slanje');
    await expect(card.textContent()).resolves.toContain('Aktivan');

    const listed = await admin.get('/api/email/templates');
    expect(listed.status).toBe(200);
    expect((listed.json as unknown as { name: string; isActive: boolean }[]).find((template) => template.name === name)).toMatchObject({ isActive: true, usageCount: 0 });

    // Edit the body on the page (?edit=, a plain post): an unknown variable is refused with its line, then saved.
    await card.getByRole('link', { name: `Uredi ${name}` }).click();
    const editor = page.getByTestId('template-edit-panel');
    await editor.waitFor();
    await expect(editor.getByLabel('Sadržaj emaila *').inputValue()).resolves.toContain('vaša faktura {{invoice_number}}');
    await editor.getByLabel('Sadržaj emaila *').fill('Poštovani {{client_name}},\n\n{{oib}}');
    await editor.getByRole('button', { name: 'Spremi promjene' }).click();
    await editor.getByText(/Line 3: unknown variable \{\{oib\}\}/).waitFor();
    await editor.getByLabel('Sadržaj emaila *').fill('Poštovani {{client_name}},\nnovi sadržaj za <b>{{company_name}}</b>.');
    await editor.getByRole('button', { name: 'Spremi promjene' }).click();
    await page.locator('.toast').getByText('Template updated').waitFor();
    await page.waitForURL(/preview=/);

    // The preview (?preview=): rendered server-side with the sample data, HTML in a sandboxed frame and the text version.
    const preview = page.getByTestId('template-preview-panel');
    await preview.waitFor();
    await expect(preview.getByTestId('template-preview-subject').textContent()).resolves.toContain('Obavijest za Primjer d.o.o.');
    await expect(preview.getByTestId('template-preview-text').textContent()).resolves.toContain('Poštovani Ana Horvat,\nnovi sadržaj za <b>Primjer d.o.o.</b>.');
    const frame = preview.getByTestId('template-preview-html');
    await expect(frame.getAttribute('sandbox')).resolves.toBe('');
    const srcDoc = (await frame.getAttribute('srcdoc')) ?? '';
    expect(srcDoc).toContain('novi sadržaj za &lt;b&gt;Primjer d.o.o.&lt;/b&gt;.');
    await expect(card.textContent()).resolves.toContain('novi sadržaj za');
    const stored = await admin.get('/api/email/templates');
    expect((stored.json as unknown as { name: string; body: string }[]).find((template) => template.name === name)?.body).toBe(
      'Poštovani {{client_name}},\nnovi sadržaj za <b>{{company_name}}</b>.',
    );

    await page.getByTestId('tab-logs').click();
    await page.waitForURL(/tab=logs/);
    // The refused save answers 400, which the browser reports; nothing else may.
    expect(errors.filter((error) => !error.includes('status of 400'))).toEqual([]);
    await close();
  });

  it("the 'Aktivan' switch hands an event trigger over from the active template, with and without JavaScript, and says so", async () => {
    const stamp = Date.now();
    const content = { trigger: 'payment_overdue', subject: 'Kašnjenje {{invoice_number}}', body: 'Iznos {{amount}}' };
    const first = await admin.post('/api/email/templates', { name: `E2E kašnjenje A ${stamp}`, isActive: true, ...content });
    const second = await admin.post('/api/email/templates', { name: `E2E kašnjenje B ${stamp}`, isActive: false, ...content });
    expect([first.status, second.status]).toEqual([201, 201]);
    const a = first.json as unknown as { id: string; name: string };
    const b = second.json as unknown as { id: string; name: string };
    const badge = async (page: Page, name: string) => (await page.getByTestId('template-card').filter({ hasText: name }).locator('.rt-Badge').first().textContent())?.trim();

    // With JavaScript: the switch on B (a fetcher post); the toast names the template that went off.
    const withJs = await newStrictPage(browser, { sessionCookie: admin.cookie });
    await withJs.page.goto(`${baseUrl}/email-automation`);
    await withJs.page.waitForLoadState('networkidle');
    await withJs.page.getByTestId('template-card').filter({ hasText: b.name }).getByRole('switch', { name: 'Aktivni predložak' }).click();
    await withJs.page
      .locator('.toast')
      .getByText(`Template status updated successfully. '${b.name}' is now the active template for Kašnjenje plaćanja; '${a.name}' was deactivated`)
      .waitFor();
    await expect.poll(() => badge(withJs.page, b.name)).toBe('Aktivan');
    await expect.poll(() => badge(withJs.page, a.name)).toBe('Neaktivan');
    expect(withJs.errors).toEqual([]);
    await withJs.close();

    // Without JavaScript: the same switch is a plain post; back to A.
    const noJs = await newStrictPage(browser, { sessionCookie: admin.cookie, javaScriptEnabled: false });
    await noJs.page.goto(`${baseUrl}/email-automation`);
    await noJs.page.getByTestId('template-card').filter({ hasText: a.name }).getByRole('switch', { name: 'Aktivni predložak' }).click();
    // Redirected back to the list (the toast itself needs JavaScript to show).
    await noJs.page.waitForURL(`${baseUrl}/email-automation`);
    expect(await badge(noJs.page, a.name)).toBe('Aktivan');
    expect(await badge(noJs.page, b.name)).toBe('Neaktivan');
    await noJs.close();

    const templates = (await admin.get('/api/email/templates?limit=1000')).json as unknown as Array<{ id: string; trigger: string; isActive: boolean }>;
    expect(templates.filter((template) => template.trigger === 'payment_overdue' && template.isActive).map((template) => template.id)).toEqual([a.id]);
    // Both changes of each switch are in the activity log.
    const logOf = async (id: string) =>
      ((await admin.get(`/api/activity-logs?entityType=email_template&entityId=${id}`)).json as unknown as Array<{ action: string; details: Record<string, unknown> }>).map(
        (entry) => [entry.action, entry.details.deactivatedTemplate ?? entry.details.replacedBy ?? null],
      );
    expect(await logOf(b.id)).toEqual([
      ['email_template_deactivated', { id: a.id, name: a.name }],
      ['email_template_activated', { id: a.id, name: a.name }],
      ['email_template_created', null],
    ]);
    expect(await logOf(a.id)).toEqual(
      expect.arrayContaining([
        ['email_template_activated', { id: b.id, name: b.name }],
        ['email_template_deactivated', { id: b.id, name: b.name }],
      ]),
    );
  });
});
