import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { formatEur } from '../../app/utils/format.ts';
import type { ApiClient } from '../support/api-client.ts';
import { newStrictPage } from '../support/browser.ts';
import { browserAndAdmin } from '../support/sessions.ts';

const baseUrl = inject('baseUrl');
let browser: Browser;
let admin: ApiClient;

beforeAll(async () => ({ browser, admin } = await browserAndAdmin()));
afterAll(() => browser?.close());

interface Metrics {
  availableForFinancing: number;
  activeClients: number;
  invoicesInProcess: number;
  automationSuccess: number;
  historicalData: { date: string }[];
  notes: { awaitingVerification: number; newActiveClientsThisMonth: number };
}

const percent = new Intl.NumberFormat('hr-HR', { maximumFractionDigits: 1 });

describe('dashboard', () => {
  it('shows the four cards with the figures of GET /api/dashboard/metrics, and 7D changes the chart', async () => {
    const response = await admin.get('/api/dashboard/metrics');
    expect(response.status).toBe(200);
    const metrics = response.json as unknown as Metrics;
    expect(metrics.historicalData).toHaveLength(90);

    const { page, errors, close } = await newStrictPage(browser, { sessionCookie: admin.cookie });
    await page.goto(baseUrl);
    await page.getByTestId('metric-available').waitFor();
    await page.waitForLoadState('networkidle');
    const text = (testId: string) => page.getByTestId(testId).textContent();
    expect(await text('metric-available-value')).toBe(formatEur(metrics.availableForFinancing, { decimals: 0 }));
    expect(await text('metric-active-clients-value')).toBe(String(metrics.activeClients));
    expect(await text('metric-invoices-in-process-value')).toBe(String(metrics.invoicesInProcess));
    expect(await text('metric-automation-success-value')).toBe(`${percent.format(metrics.automationSuccess)}%`);
    expect(await text('metric-invoices-in-process-note')).toBe(`${metrics.notes.awaitingVerification} awaiting verification`);
    expect(await text('metric-active-clients-note')).toBe(`+${metrics.notes.newActiveClientsThisMonth} new this month`);
    expect(await text('dashboard-clock')).not.toBe('');

    const chart = page.getByTestId('invoice-chart');
    expect(await chart.getAttribute('data-days')).toBe('30');
    expect(await page.getByTestId('period-30d').getAttribute('aria-current')).toBe('true');
    await page.getByTestId('period-7d').click();
    await expect.poll(() => chart.getAttribute('data-days')).toBe('7');
    expect(new URL(page.url()).searchParams.get('period')).toBe('7d');
    expect(await page.getByTestId('period-7d').getAttribute('aria-current')).toBe('true');
    await page.getByTestId('period-90d').click();
    await expect.poll(() => chart.getAttribute('data-days')).toBe('90');

    // Every section rendered without its error text.
    expect(await page.getByText('Greška pri učitavanju').count()).toBe(0);
    expect(errors).toEqual([]);
    await close();
  });

  it('works without JavaScript: the period links are plain links', async () => {
    const { page, close } = await newStrictPage(browser, { sessionCookie: admin.cookie, javaScriptEnabled: false });
    await page.goto(baseUrl);
    await page.getByTestId('period-7d').click();
    await page.waitForURL(/period=7d/);
    expect(await page.getByTestId('invoice-chart').getAttribute('data-days')).toBe('7');
    await close();
  });
});

describe('monitoring', () => {
  it('shows the worker as running, the database latency and the queues; the log tab filters', async () => {
    const status = (await admin.get('/api/monitoring')).json as unknown as { workerRunning: boolean; queues: { name: string }[] };
    expect(status.workerRunning).toBe(true);

    const { page, errors, close } = await newStrictPage(browser, { sessionCookie: admin.cookie });
    await page.goto(`${baseUrl}/monitoring`);
    await page.getByTestId('worker-status').waitFor();
    expect(await page.getByTestId('worker-status').textContent()).toBe('Running');
    expect(await page.getByTestId('health-badge').textContent()).toBe('System healthy');
    expect(await page.getByTestId('database-latency').textContent()).toMatch(/^Latency [\d,.]+ ms$/);
    for (const queue of status.queues) await page.locator(`[data-queue="${queue.name}"]`).waitFor();

    await page.getByRole('link', { name: 'Activity logs' }).click();
    await page.getByTestId('log-filters').waitFor();
    await page.getByTestId('log-filters').locator('select[name="entityType"]').selectOption('invoice');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/entityType=invoice/);
    const expected = await admin.get('/api/activity-logs?entityType=invoice&limit=1');
    const total = Number(expected.headers.get('x-total-count'));
    await expect.poll(() => page.getByTestId('log-total').textContent()).toBe(`${total} ${total === 1 ? 'entry' : 'entries'}`);
    expect(errors).toEqual([]);
    await close();
  });
});
