import fs from 'node:fs';
import type { Browser, Page } from 'playwright-core';
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

interface Figures {
  period: string;
  from: string;
  to: string;
  financingVolume: number;
  turnover: number;
  feeIncome: number;
  series: unknown[];
}

const figures = async (period: string) => {
  const response = await admin.get(`/api/analytics?period=${period}`);
  expect(response.status).toBe(200);
  return response.json as unknown as Figures;
};
const day = (value: string) => `${value.slice(8, 10)}. ${value.slice(5, 7)}. ${value.slice(0, 4)}.`;

/** The page shows the API's figures of `period`: range, KPI cards and chart points. */
async function expectShows(page: Page, data: Figures) {
  // The range differs for every period (90 d and 1 y can have as many chart points), so wait on it.
  await expect.poll(() => page.getByTestId('analytics-range').textContent()).toBe(`${day(data.from)} – ${day(data.to)}`);
  expect(await page.getByTestId('analytics-chart').getAttribute('data-points')).toBe(String(data.series.length));
  expect(await page.getByTestId('kpi-volume-value').textContent()).toBe(formatEur(data.financingVolume));
  expect(await page.getByTestId('kpi-turnover-value').textContent()).toBe(formatEur(data.turnover));
  expect(await page.getByTestId('kpi-fees-value').textContent()).toBe(formatEur(data.feeIncome));
  expect(await page.getByTestId(`period-${data.period}`).getAttribute('aria-current')).toBe('true');
}

describe('analytics', () => {
  it('switching the period changes the figures to those of GET /api/analytics', async () => {
    const [week, month, quarter, year] = await Promise.all(['7d', '30d', '90d', '1y'].map(figures));
    expect(new Set([week.from, month.from, quarter.from, year.from]).size).toBe(4);
    const { page, errors, close } = await newStrictPage(browser, { sessionCookie: admin.cookie });
    await page.goto(`${baseUrl}/analytics`);
    await page.waitForLoadState('networkidle');
    await expectShows(page, month);
    for (const data of [week, quarter, year]) {
      await page.getByTestId(`period-${data.period}`).click();
      await page.waitForURL(new RegExp(`period=${data.period}`));
      await expectShows(page, data);
    }
    // The tab keeps the period; the risk tab lists the exposure tables.
    await page.getByTestId('tab-risk').click();
    await page.waitForURL(/tab=risk/);
    expect(new URL(page.url()).searchParams.get('period')).toBe('1y');
    await page.getByTestId('analytics-risk').waitFor();
    await page.getByTestId('analytics-concentration').waitFor();
    await page.getByTestId('top-clients').waitFor();
    expect(errors).toEqual([]);
    await close();
  });

  it('Export downloads the shown period as a CSV with a BOM and the figures', async () => {
    const data = await figures('7d');
    const { page, close } = await newStrictPage(browser, { sessionCookie: admin.cookie });
    await page.goto(`${baseUrl}/analytics?period=7d`);
    await page.getByTestId('analytics-export').waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('analytics-export').click()]);
    expect(download.suggestedFilename()).toBe(`finflow-analytics-7d-${data.to}.csv`);
    const bytes = fs.readFileSync((await download.path())!);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = bytes.subarray(3).toString('utf8').trimEnd().split('\r\n');
    expect(lines[0]).toBe('section;item;value;detail');
    expect(lines).toContain('period;period;7d;');
    expect(lines).toContain(`period;from;${data.from};`);
    expect(lines).toContain(`figures;financingVolume;${data.financingVolume.toFixed(2).replace('.', ',')};EUR`);
    expect(lines).toContain(`figures;feeIncome;${data.feeIncome.toFixed(2).replace('.', ',')};EUR`);
    expect(lines.filter((line) => line.startsWith('series;'))).toHaveLength(7);
    await close();
  });

  it('works without JavaScript: the period and tab controls are plain links', async () => {
    const data = await figures('90d');
    const { page, close } = await newStrictPage(browser, { sessionCookie: admin.cookie, javaScriptEnabled: false });
    await page.goto(`${baseUrl}/analytics`);
    await page.getByTestId('period-90d').click();
    await page.waitForURL(/period=90d/);
    await expectShows(page, data);
    await page.getByTestId('tab-financial').click();
    await page.waitForURL(/tab=financial/);
    await page.getByTestId('analytics-financial').waitFor();
    await close();
  });
});
