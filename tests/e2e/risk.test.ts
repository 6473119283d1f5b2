import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { ApiClient } from '../support/api-client.ts';
import { newStrictPage } from '../support/browser.ts';
import { browserAndAdmin } from '../support/sessions.ts';

const baseUrl = inject('baseUrl');
let browser: Browser;
let admin: ApiClient;

beforeAll(async () => ({ browser, admin } = await browserAndAdmin()));
afterAll(() => browser?.close());

const categoryOf = (score: number) => (score >= 80 ? 'low' : score >= 60 ? 'medium' : 'high');
const CATEGORY_LABEL = { low: 'Low', medium: 'Medium', high: 'High' } as const;

async function seededClient(): Promise<{ id: string; companyName: string }> {
  const clients = await admin.get('/api/clients?limit=1');
  expect(clients.status).toBe(200);
  return clients.json[0] as { id: string; companyName: string };
}

describe('risk assessment (/risk)', () => {
  it("runs 'Nova procjena' for a seeded client, shows 'Detalji', and adjusts with 'Uredi'", async () => {
    const client = await seededClient();
    const { page, errors, close } = await newStrictPage(browser, { sessionCookie: admin.cookie });
    await page.goto(`${baseUrl}/risk`);
    await page.getByRole('heading', { name: 'Procjena rizika' }).waitFor();

    // The summary cards count what the API counts.
    const low = await admin.get('/api/risk-assessments?category=low&limit=1');
    expect(await page.getByTestId('summary-low').getByTestId('summary-count').textContent()).toBe(low.headers.get('x-total-count'));
    const firstCard = page.getByTestId('assessment-card').first();
    expect(await firstCard.getByTestId('assessment-factor').count()).toBe(4);

    await page.getByRole('link', { name: 'Nova procjena' }).click();
    const panel = page.getByTestId('new-assessment');
    await panel.locator('select[name="entity"]').selectOption(`client:${client.id}`);
    await panel.locator('textarea[name="notes"]').fill('E2E procjena');
    await panel.getByRole('button', { name: 'Run assessment' }).click();

    const details = page.getByTestId('assessment-details');
    await details.waitFor();
    await page.locator('.toast').getByText('Assessment saved').waitFor();
    const listed = await admin.get(`/api/risk-assessments?q=${encodeURIComponent(client.companyName)}&entityType=client&limit=1`);
    const assessment = listed.json[0] as { id: string; entityId: string; automaticScore: number; score: number; notes: string; assessedBy: string };
    expect(assessment).toMatchObject({ entityId: client.id, notes: 'E2E procjena', assessedBy: expect.not.stringMatching(/^system$/) });
    expect(page.url()).toContain(`details=${assessment.id}`);
    await details.getByText(client.companyName).waitFor();
    expect(await details.locator('[data-testid^="factor-"]').count()).toBeGreaterThanOrEqual(7); // six factors and the sum
    expect(await details.getByTestId('score-computation').textContent()).toContain(`= ${assessment.score}/100`);

    await details.getByRole('link', { name: 'Uredi' }).click();
    const edit = page.getByTestId('assessment-edit');
    await edit.waitFor();
    const adjustment = assessment.automaticScore >= 60 ? -(assessment.automaticScore - 59) : 80 - assessment.automaticScore;
    const expected = Math.min(100, Math.max(0, assessment.automaticScore + adjustment));
    await edit.locator('input[name="manualAdjustment"]').fill(String(adjustment));
    await edit.locator('textarea[name="notes"]').fill('Korekcija nakon razgovora s klijentom');
    await edit.getByRole('button', { name: 'Save adjustment' }).click();

    await page.locator('.toast').getByText('Assessment updated').waitFor();
    await details
      .getByTestId('assessment-score')
      .filter({ hasText: `${expected}/100` })
      .waitFor();
    expect(await details.getByTestId('assessment-category').textContent()).toBe(CATEGORY_LABEL[categoryOf(expected)]);
    expect(await details.getByTestId('adjusted-by').textContent()).toMatch(/\d{2}:\d{2}/);

    const stored = await admin.get(`/api/risk-assessments/${assessment.id}`);
    expect(stored.json).toMatchObject({ manualAdjustment: adjustment, score: expected, category: categoryOf(expected), adjustedBy: expect.any(String) });
    const clientNow = await admin.get(`/api/clients/${client.id}`);
    expect(clientNow.json).toMatchObject({ riskScore: expected, riskCategory: categoryOf(expected) });

    expect(errors).toEqual([]);
    await close();
  });

  it('works without JavaScript: filter in the URL, and a new assessment by a plain form post', async () => {
    const client = await seededClient();
    const { page, close } = await newStrictPage(browser, { sessionCookie: admin.cookie, javaScriptEnabled: false });
    await page.goto(`${baseUrl}/risk?category=high&type=client`);
    expect(await page.locator('select[name="category"]').inputValue()).toBe('high');
    const high = await admin.get('/api/risk-assessments?category=high&entityType=client&limit=1');
    expect(await page.getByTestId('total-count').textContent()).toContain(String(high.headers.get('x-total-count')));

    await page.goto(`${baseUrl}/risk?new=1`);
    await page.locator('select[name="entity"]').selectOption(`client:${client.id}`);
    await page.getByRole('button', { name: 'Run assessment' }).click();
    await page.getByTestId('assessment-details').waitFor();
    expect(page.url()).toMatch(/details=[0-9a-f-]{36}/);
    await close();
  });
});
