import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { strFromU8, unzipSync } from 'fflate';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { dayOfSerial, readXlsx } from '../../app/exports/test-helpers.server.ts';
import type { ApiClient } from '../support/api-client.ts';
import { newStrictPage } from '../support/browser.ts';
import { browserAndAdmin } from '../support/sessions.ts';

/**
 * Backups and exports as staff use them: Settings' 'Izvezi podatke' and 'Stvori
 * sigurnosnu kopiju' (made by the worker, downloaded from the list), and the
 * XLSX export of /analytics.
 */
const baseUrl = inject('baseUrl');
let browser: Browser;
let admin: ApiClient;

beforeAll(async () => ({ browser, admin } = await browserAndAdmin()));
afterAll(() => browser?.close());

async function download(page: Page, testId: string) {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testId).click()]);
  return { name: file.suggestedFilename(), bytes: fs.readFileSync((await file.path())!) };
}

const csvRows = (bytes: Uint8Array) => {
  const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
  expect(text.charCodeAt(0)).toBe(0xfeff);
  // Records end at a CRLF outside quotes: other tests store text with line breaks (quoted fields).
  const records: string[] = [];
  let start = 1;
  let quoted = false;
  for (let i = 1; i < text.length; i++) {
    if (text[i] === '"') quoted = !quoted;
    else if (!quoted && text[i] === '\r' && text[i + 1] === '\n') {
      records.push(text.slice(start, i));
      start = i + 2;
      i++;
    }
  }
  if (start < text.length) records.push(text.slice(start));
  return records;
};

describe('Settings: data export and backups', () => {
  it("'Izvezi podatke' downloads the book as one CSV per entity, as many rows as the API counts", async () => {
    const { page, errors, close } = await newStrictPage(browser, { sessionCookie: admin.cookie });
    await page.goto(`${baseUrl}/settings`);
    await page.getByRole('link', { name: 'Izvezi podatke' }).waitFor();
    // As in the backup test: click once the page's scripts have settled, not while hydration may replace the link.
    await page.waitForLoadState('networkidle');
    const file = await download(page, 'export-book');
    expect(file.name).toMatch(/^finflow-book-\d{4}-\d{2}-\d{2}\.zip$/);
    const entries = unzipSync(new Uint8Array(file.bytes));
    expect(Object.keys(entries)).toEqual(expect.arrayContaining(['clients.csv', 'customers.csv', 'invoices.csv', 'payments.csv', 'activity_logs.csv', 'manifest.json']));
    expect(Object.keys(entries)).not.toContain('sessions.csv');
    for (const [entity, path] of [
      ['clients', '/api/clients'],
      ['invoices', '/api/invoices'],
      ['customers', '/api/customers'],
    ]) {
      const [header, ...rows] = csvRows(entries[`${entity}.csv`]);
      expect(header.split(',')[0]).toBe('id');
      expect(rows.length, entity).toBe(Number((await admin.get(`${path}?limit=1`)).headers.get('x-total-count')));
    }
    expect(csvRows(entries['users.csv'])[0]).not.toMatch(/password|totp/);
    expect(errors).toEqual([]);
    await close();
  });

  it("'Stvori sigurnosnu kopiju' starts a backup that the worker completes, and it downloads intact", async () => {
    const { page, errors, close } = await newStrictPage(browser, { sessionCookie: admin.cookie });
    await page.goto(`${baseUrl}/settings`);
    await page.waitForLoadState('networkidle');
    await page.getByRole('button', { name: 'Stvori sigurnosnu kopiju' }).click();
    await page.locator('.toast').getByText('Backup started').waitFor();
    const [latest] = (await admin.get('/api/backups?limit=1')).json as Array<{ id: string }>;
    const row = page.getByTestId(`backup-${latest.id}`);
    await row.waitFor();
    // The list re-reads itself while the backup runs.
    await expect.poll(() => row.getAttribute('data-status'), { timeout: 60_000, interval: 500 }).toBe('completed');
    const backup = ((await admin.get('/api/backups?limit=1')).json as Array<{ id: string; sha256: string; size: number; fileName: string }>)[0];
    const file = await download(page, `backup-download-${latest.id}`);
    expect(file.name).toBe(backup.fileName);
    expect(file.bytes.length).toBe(backup.size);
    expect(createHash('sha256').update(file.bytes).digest('hex')).toBe(backup.sha256);
    const entries = unzipSync(new Uint8Array(file.bytes));
    const manifest = JSON.parse(strFromU8(entries['manifest.json'])) as { tables: Array<{ name: string; rows: number }> };
    const invoices = manifest.tables.find((table) => table.name === 'invoices')!;
    expect(invoices.rows).toBe(Number((await admin.get('/api/invoices?limit=1')).headers.get('x-total-count')));
    expect(strFromU8(entries.SHA256SUMS)).toContain('  data/invoices/0001.copy');
    expect(errors).toEqual([]);
    await close();
  });

  it('starts a backup without JavaScript too', async () => {
    const before = Number((await admin.get('/api/backups?limit=1')).headers.get('x-total-count'));
    const { page, close } = await newStrictPage(browser, { sessionCookie: admin.cookie, javaScriptEnabled: false });
    await page.goto(`${baseUrl}/settings`);
    await page.getByRole('button', { name: 'Stvori sigurnosnu kopiju' }).click();
    await page.waitForURL(`${baseUrl}/settings`);
    await page.getByTestId('backup-list').waitFor();
    expect(Number((await admin.get('/api/backups?limit=1')).headers.get('x-total-count'))).toBe(before + 1);
    await close();
  });
});

describe('/analytics', () => {
  it('Export XLSX downloads the shown period as a workbook with its figures', async () => {
    const figures = (await admin.get('/api/analytics?period=90d')).json as unknown as { from: string; to: string; financingVolume: number; feeIncome: number; series: unknown[] };
    const { page, close } = await newStrictPage(browser, { sessionCookie: admin.cookie });
    await page.goto(`${baseUrl}/analytics?period=90d`);
    const file = await download(page, 'analytics-export-xlsx');
    expect(file.name).toBe(`finflow-analytics-90d-${figures.to}.xlsx`);
    const workbook = readXlsx(new Uint8Array(file.bytes));
    const [summary, , , , , series] = workbook.sheets;
    expect(summary.name).toBe('Summary');
    expect(dayOfSerial(summary.cells.get('B3')!.value as number)).toBe(figures.from);
    expect(summary.cells.get('B7')!.value).toBe(figures.financingVolume);
    expect(summary.cells.get('B9')!.value).toBe(figures.feeIncome);
    expect(series.cells.has(`A${figures.series.length + 1}`)).toBe(true);
    expect(series.cells.has(`A${figures.series.length + 2}`)).toBe(false);
    await close();
  });
});
