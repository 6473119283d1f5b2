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

const countOf = async (status: string) => (await admin.get(`/api/workflow-instances?status=${status}&limit=1`)).headers.get('x-total-count');

describe('workflow engine (/workflows)', () => {
  it('shows the counters, pauses and resumes a running seeded instance, and opens its details', async () => {
    const { page, errors, close } = await newStrictPage(browser, { sessionCookie: admin.cookie });
    await page.goto(`${baseUrl}/workflows`);
    await page.getByRole('heading', { level: 2, name: 'Workflow Engine' }).waitFor();
    for (const status of ['running', 'completed', 'failed', 'paused']) {
      expect(await page.getByTestId(`counter-${status}`).getByTestId('counter-value').textContent()).toBe(await countOf(status));
    }
    expect(await page.getByTestId('instance-card').count()).toBeGreaterThan(0);

    const running = await admin.get('/api/workflow-instances?status=running&limit=1');
    const instance = running.json[0] as { id: string; workflowName: string };
    expect(instance).toBeDefined();
    await page.goto(`${baseUrl}/workflows?details=${instance.id}`);
    const details = page.getByTestId('instance-details');
    await details.getByText(instance.workflowName).first().waitFor();
    expect(await details.getByTestId('step-run').count()).toBeGreaterThan(0);

    await details.getByRole('button', { name: 'Pause' }).click();
    await page.locator('.toast').getByText('Workflow paused').waitFor();
    expect((await admin.get(`/api/workflow-instances/${instance.id}`)).json).toMatchObject({ status: 'paused' });
    await details.getByRole('button', { name: 'Resume' }).click();
    await page.locator('.toast').getByText('Workflow resumed').waitFor();
    expect((await admin.get(`/api/workflow-instances/${instance.id}`)).json).toMatchObject({ status: expect.stringMatching(/^(running|completed)$/) });
    expect(errors).toEqual([]);
    await close();
  });

  it('creates a definition with the editor and lists it', async () => {
    const { page, errors, close } = await newStrictPage(browser, { sessionCookie: admin.cookie });
    const name = `E2E workflow ${Date.now()}`;
    await page.goto(`${baseUrl}/workflows?tab=definitions`);
    await page.getByRole('link', { name: 'New workflow' }).click();
    const editor = page.getByTestId('definition-editor');
    await editor.waitFor();
    await editor.locator('input[name="name"]').fill(name);
    await editor.locator('select[name="type"]').selectOption('risk_assessment');
    await editor.locator('input[name="steps[0].name"]').fill('Izračun rizika');
    await editor.locator('select[name="steps[0].handler"]').selectOption('riskAssessment');
    await editor.getByRole('button', { name: 'Add step' }).click();
    await editor.locator('input[name="steps[1].name"]').waitFor();
    await editor.locator('input[name="steps[1].name"]').fill('Pregled analitičara');
    await editor.locator('select[name="steps[1].type"]').selectOption('manual');
    await editor.locator('select[name="steps[1].taskType"]').selectOption('risk_assessment');
    // Move the manual step first and back again: the order is kept by the server.
    await editor.getByRole('button', { name: 'Move up 2' }).click();
    await expect.poll(() => editor.locator('input[name="steps[0].name"]').inputValue()).toBe('Pregled analitičara');
    await editor.getByRole('button', { name: 'Move down 1' }).click();
    await expect.poll(() => editor.locator('input[name="steps[0].name"]').inputValue()).toBe('Izračun rizika');
    await editor.getByRole('button', { name: 'Save', exact: true }).click();
    await page.locator('.toast').getByText('Workflow saved').waitFor();

    const card = page.getByTestId('definition-card').filter({ hasText: name });
    await card.waitFor();
    expect(await card.getByTestId('definition-step').allTextContents()).toEqual([expect.stringContaining('Izračun rizika'), expect.stringContaining('Pregled analitičara')]);
    const listed = (await admin.get('/api/workflows')).json as Array<{ name: string; type: string; isActive: boolean; steps: unknown[] }>;
    expect(listed.find((definition) => definition.name === name)).toMatchObject({
      type: 'risk_assessment',
      isActive: false,
      steps: [
        { name: 'Izračun rizika', type: 'automated', handler: 'riskAssessment' },
        { name: 'Pregled analitičara', type: 'manual', taskType: 'risk_assessment' },
      ],
    });
    expect(errors).toEqual([]);
    await close();
  });
});
